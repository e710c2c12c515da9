// Build of the bench "floor" page (scripts/bench/ui.ts builds it with Vite's JS API on every run). Separate from
// the app's dist/web; same Vite, React plugin and node_modules as the app. orders.json is copied next to the page.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    {
      name: 'floor-orders-json',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'orders.json', source: fs.readFileSync(new URL('./orders.json', import.meta.url)) });
      },
    },
  ],
  root: here,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  build: { outDir: `${here}dist`, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
