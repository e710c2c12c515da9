/** The document runtime: pure models (no React) and the React renderers the web shell mounts. */
export * from './model/index.js';
export { RuntimeProvider, useRuntime, errorData, type RuntimeEnv, type RequestFn, type RequestOptions, type Runtime } from './react/context.js';
export { useDictionaries, DICT_BATCH_URL } from './react/useDictionaries.js';
export { ListScreen } from './react/ListScreen.js';
export { ScreenPage, useScreenDocument, SCREEN_DETAIL_URL } from './react/ScreenPage.js';
