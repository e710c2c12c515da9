import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
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
 * - icons: the icons several pages draw.
 * - antd's components in chunks by what uses them: the text box (the login page, search bars), the shell (menus,
 *   tabs, top bar; with swr and the menu icon component), tables (list screens) and, last, antd's Form (dialogs).
 * - screen: the screen page's own code (runtime provider, document view, list screen).
 * The rest (pages, dialogs, pickers, charts, each menu icon) stays in the chunks of whatever loads it.
 */
const groups = [
  { name: 'app', tags: ['$initial' as const], priority: 7 },
  // An icon drawn by several pages (≈ 50 of them, ≈ 13 kB gzip in all) stays out of the groups below, which would
  // load with any page drawing it, and goes to one chunk of its own: a list drew ≈ 20 of them from as many chunks
  // (one per set of pages sharing them), ≈ 18 kB gzip, each file compressed on its own. A menu icon drawn by one
  // page only (src/runtime/react/icons.tsx) keeps its own chunk.
  { name: 'icons', test: /@ant-design[\\/]icons(-svg)?[\\/]es[\\/](icons|asn)[\\/]/, minShareCount: 2, priority: 6 },
  // The text box alone (the search bar, the login page: LightField.tsx), without antd's Form and the other inputs.
  {
    name: 'input',
    test: /src[\\/]runtime[\\/]react[\\/]LightField\.tsx$|node_modules[\\/](antd[\\/]es[\\/](input[\\/](Input|Password|utils|hooks[\\/].*|style[\\/](index|token|variants))\.js|form[\\/](context|hooks[\\/]useVariants)\.js|grid[\\/]|row[\\/]|col[\\/])|@rc-component[\\/](input[\\/]es[\\/](Input|BaseInput|utils[\\/].*|hooks[\\/].*)\.js|form[\\/]es[\\/]FormContext\.js))/,
    priority: 5,
  },
  {
    name: 'shell',
    test: (id: string) =>
      inPackages(['layout', 'menu', 'dropdown', 'tabs', 'badge', 'avatar', 'tooltip', 'popover', 'auto-complete', 'select', 'empty'], ['@rc-component[\\\\/](menu|overflow|dropdown|tabs|tooltip|select|virtual-list)', 'swr']).test(id) ||
      // (in the screen chunk, which has them too, they would make it load with every shell page)
      /src[\\/]runtime[\\/]react[\\/]icons\.tsx$/.test(id),
    priority: 4,
  },
  { name: 'table', test: inPackages(['table', 'radio', 'checkbox', 'pagination', 'tag'], ['@rc-component[\\\\/](table|pagination|checkbox)', '@tanstack[\\\\/]table-core', '@tanstack[\\\\/]react-table']), priority: 3 },
  { name: 'screen', test: /src[\\/]runtime[\\/]react[\\/](context|ScreenPage)\.tsx$/, priority: 2 },
  // Last, so that the helpers antd's Form shares with the parts above (tooltip, space, colours …) go with those parts
  // and not into this chunk: a list, the login page and the shell do not load the form code (LightField.tsx).
  { name: 'form', test: inPackages(['form', 'input'], ['@rc-component[\\\\/](form|input|async-validator)', 'scroll-into-view-if-needed', 'compute-scroll-into-view']), priority: 1 },
];

/**
 * The antd component packages (`@rc-component/*`) and antd's style helpers declare no `sideEffects` in their
 * package.json, so the bundler keeps every module they reach, used or not (issue 13: ≈ 1.5 kB gzip of unused
 * modules in start-up code alone). Their ES modules only define components and helpers: marked free of side
 * effects here, an unused module is left out as it is for antd itself (`"sideEffects": ["*.css"]`).
 */
const PURE_PACKAGES = /node_modules[\\/](@rc-component[\\/][^\\/]+|@ant-design[\\/](cssinjs|cssinjs-utils|fast-color|colors))[\\/]/;
function pureComponentPackages(): Plugin {
  return {
    name: 'pure-component-packages',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !(PURE_PACKAGES.test(importer) || /^@rc-component\/|^@ant-design\//.test(source))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && PURE_PACKAGES.test(resolved.id) ? { ...resolved, moduleSideEffects: false } : null;
    },
  };
}

/**
 * Narrower imports for a few antd modules (issue 13). A module that start-up code or a list imports makes the whole
 * module start-up or list code, and with it everything else that module exports, used there or not:
 * - antd's Button and Tag styles (every page) take `isBright` from the colour picker's presets panel, and antd's
 *   colour class takes `Color` through the colour picker's index: the picker and its presets' Collapse were start-up
 *   code. They get the one helper (src/web/lib/antdHelpers.ts) and the one class.
 * - antd's Table takes four tree helpers through rc-tree's index (row selection) and the whole Tree for the tree
 *   mode of its filter menu: the tree component (≈ 9 kB gzip) was list code. Selection gets the helpers' own
 *   modules; the filter menu a Tree that loads when a tree filter first opens (src/web/lib/antdTableFilterTree.tsx;
 *   our documents search through the search bar and set no column filters).
 * Each entry: the importer (a path under antd/es), the import as written, and what it resolves to instead (a file,
 * or the code of a module of re-exports). tests/unit/web/antd-narrow-imports.test.ts keeps the copies honest.
 */
const ownFile = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const NARROW_IMPORTS: Array<{ importer: RegExp; source: string; file?: string; code?: string }> = [
  { importer: /\/antd\/es\/(button|tag)\/style\/[^/]+\.js$/, source: '../../color-picker/components/ColorPresets', file: ownFile('./src/web/lib/antdHelpers.ts') },
  { importer: /\/antd\/es\/color-picker\/(color|util)\.js$/, source: '@rc-component/color-picker', code: "export { Color } from '@rc-component/color-picker/es/color.js';" },
  {
    importer: /\/antd\/es\/table\/hooks\/useSelection\.js$/,
    source: '@rc-component/tree',
    code: [
      "export { arrAdd, arrDel } from '@rc-component/tree/es/util.js';",
      "export { conductCheck } from '@rc-component/tree/es/utils/conductUtil.js';",
      "export { convertDataToEntities } from '@rc-component/tree/es/utils/treeUtil.js';",
    ].join('\n'),
  },
  { importer: /\/antd\/es\/table\/hooks\/useFilter\/FilterDropdown\.js$/, source: '../../../tree', file: ownFile('./src/web/lib/antdTableFilterTree.tsx') },
  // - antd's Input takes rc-input through its index (which has the text area) and the form context through
  //   rc-form's index (the whole field store): a text box outside a Form needs neither.
  { importer: /\/antd\/es\/input\/Input\.js$/, source: '@rc-component/input', code: "export { default } from '@rc-component/input/es/Input.js';" },
  { importer: /\/antd\/es\/form\/context\.js$/, source: '@rc-component/form', code: "export { FormProvider } from '@rc-component/form/es/FormContext.js';" },
  // - antd's Radio.Group takes a one-line name helper from antd's useForm, which brings rc-form and its validator.
  { importer: /\/antd\/es\/radio\/group\.js$/, source: '../form/hooks/useForm', file: ownFile('./src/web/lib/antdHelpers.ts') },
];
const NARROW_PREFIX = '\0narrow-import:';
function narrowAntdImports(): Plugin {
  return {
    name: 'narrow-antd-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      const from = importer.replace(/\\/g, '/');
      const i = NARROW_IMPORTS.findIndex((n) => n.source === source && n.importer.test(from));
      if (i < 0) return null;
      return NARROW_IMPORTS[i].file ?? NARROW_PREFIX + i;
    },
    load(id) {
      return id.startsWith(NARROW_PREFIX) ? NARROW_IMPORTS[Number(id.slice(NARROW_PREFIX.length))].code : null;
    },
  };
}

// The web app is built into dist/web and served by our own server at `/`; the dev server proxies /api.
export default defineConfig({
  plugins: [react(), localeSections(import.meta.dirname), pureComponentPackages(), narrowAntdImports()],
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
  server: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:8080',
        // the app's own modules under src/web/api/ are served at /api/… too: those stay with the dev server
        bypass: (req) => (/^\/api\/[^?]*\.(ts|tsx|js)(\?|$)/.test(req.url ?? '') ? req.url : undefined),
      },
    },
  },
});
