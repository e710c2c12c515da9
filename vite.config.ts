import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app is built into dist/web and served by our own server at `/`; the dev server proxies /api.
export default defineConfig({
  plugins: [react()],
  root: 'src/web',
  publicDir: false,
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1700,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
