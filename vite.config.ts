import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { localeSections } from './scripts/vite-locales.js';

/** A module id under node_modules matching one of these package paths (antd's `es/<dir>`, other packages whole). */
function inPackages(antdDirs: string[], packages: string[]): RegExp {
  return new RegExp(`node_modules[\\\\/](antd[\\\\/]es[\\\\/](${antdDirs.join('|')})[\\\\/]|(${packages.join('|')})[\\\\/])`);
}

/**
 * Chunks (issue 13). Left alone, the bundler cuts the code shared by the lazy parts into one chunk per set of
 * importers: over a hundred small files per page, each compressed on its own. Instead, groups (each module goes to
 * the highest-priority group that claims it, with the modules it imports that no higher group has claimed):
 * - app: everything start-up imports (`$initial`: React, the router, i18next, antd's core). Start-up modules import
 *   antd by deep path (`antd/es/...`): through the barrel every component would count as imported by start-up.
 * - antd's components in three chunks by what uses them: forms (the login page, search bars, dialogs), the shell
 *   (menus, tabs, top bar; with swr and the icon set of the shell pages and the screens) and tables (list screens).
 * - screen: the screen page's own code (runtime provider, document view, list screen).
 * The rest (pages, dialogs, pickers, charts, each menu icon) stays in the chunks of whatever loads it.
 */
const groups = [
  { name: 'app', tags: ['$initial' as const], priority: 5 },
  // An icon drawn by several pages stays out of the groups below (in a chunk per set of pages that draw it): in a
  // group it would make that group's chunk load with any page drawing the same icon (a menu icon, an upload list's).
  { name: 'icons', test: /@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/]/, entriesAware: true, minShareCount: 2, priority: 4 },
  { name: 'form', test: inPackages(['form', 'input', 'grid', 'row', 'col'], ['@rc-component[\\\\/](form|input|async-validator)', 'scroll-into-view-if-needed', 'compute-scroll-into-view']), priority: 3 },
  {
    name: 'shell',
    test: (id: string) =>
      inPackages(['layout', 'menu', 'dropdown', 'tabs', 'badge', 'avatar', 'tooltip', 'popover', 'auto-complete', 'select', 'empty'], ['@rc-component[\\\\/](menu|overflow|dropdown|tabs|tooltip|select|virtual-list)', 'swr']).test(id) ||
      // (in the screen chunk, which has them too, they would make it load with every shell page)
      /src[\\/]runtime[\\/]react[\\/]icons\.tsx$/.test(id),
    priority: 2,
  },
  { name: 'table', test: inPackages(['table', 'tree', 'radio', 'checkbox', 'pagination', 'tag'], ['@rc-component[\\\\/](table|tree|pagination|checkbox)', '@tanstack[\\\\/]table-core', '@tanstack[\\\\/]react-table']), priority: 1 },
  { name: 'screen', test: /src[\\/]runtime[\\/]react[\\/](context|ScreenPage)\.tsx$/, priority: 0 },
];

// The web app is built into dist/web and served by our own server at `/`; the dev server proxies /api.
export default defineConfig({
  plugins: [react(), localeSections(import.meta.dirname)],
  root: 'src/web',
  publicDir: false,
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1700,
    rolldownOptions: {
      output: {
        codeSplitting: { groups },
        // the icon chunks are named after every page that shares them: a short name instead
        chunkFileNames: (c) => (c.name.startsWith('icons~') ? 'assets/icons-[hash].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
