/** The document runtime: pure models (no React) and the React renderers the web shell mounts. */
export * from './model/index.js';
export { RuntimeProvider, useRuntime, errorData, browserQuery, type RuntimeEnv, type RequestFn, type RequestOptions, type Runtime, type QueryStore } from './react/context.js';
export { useDictionaries, DICT_BATCH_URL } from './react/useDictionaries.js';
export { ListScreen } from './react/ListScreen.js';
export { ScreenPage, DocumentView, useScreenDocument, SCREEN_DETAIL_URL } from './react/ScreenPage.js';
export { useListController, type ListController, type ListControllerOptions } from './react/useListController.js';
export {
  registerView,
  registerWidget,
  registerCell,
  registerPage,
  registerAction,
  registerActionDialog,
  registeredNames,
  type ViewProps,
  type CellProps,
  type PageProps,
  type ClientAction,
  type ActionDialogProps,
} from './react/registry.js';
