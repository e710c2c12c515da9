/**
 * The names of every extension point of the document format, written once: widgets (`ui:widget`), cells
 * (`list.columns[].render`), views (`view.type`) and special pages (`view.page` of a page screen). The
 * meta-schema, the runtime's React registries and the schema lint all read these lists; a module that adds a
 * widget or a view adds its name here through `extendRegistry` (before documents are loaded) and its component
 * to the runtime registry (src/runtime/react/registry.ts).
 *
 * Each widget lists the `ui:options` keys it reads, so a misspelt or misplaced option is a lint error.
 */

export interface WidgetSpec {
  /** ui:options keys this widget reads (besides the ones every widget may carry: see COMMON_UI_OPTIONS). */
  options: string[];
}

/** ui:options keys every widget accepts. */
export const COMMON_UI_OPTIONS = ['tip'];

export const WIDGET_SPECS: Record<string, WidgetSpec> = {
  text: { options: ['counter'] },
  textarea: { options: ['rows', 'counter'] },
  password: { options: [] },
  number: { options: ['precision', 'suffix', 'step'] },
  dict: { options: ['dictCode', 'numeric'] },
  select: { options: ['source', 'sources', 'multiple'] },
  date: { options: [] },
  datetime: { options: [] },
  daterange: { options: [] },
  datetimerange: { options: [] },
  month: { options: [] },
  hidden: { options: [] },
  upload: { options: ['accept', 'maxSize', 'endpoint', 'listType'] },
  file: { options: ['accept', 'maxSize'] },
  json: { options: ['rows'] },
  treeSelect: { options: ['tree', 'multiple', 'checkStrictly', 'leafOnly'] },
  icon: { options: [] },
};

/** Cell renderers of list columns (dictionary and lookup cells are inferred from x-dict / x-lookup). */
export const CELL_NAMES = ['text', 'image', 'link', 'money', 'json', 'percent', 'icon', 'daterange', 'tag'];

/** Views a screen document may choose (`view.type`). */
export const VIEW_NAMES = ['list', 'tree', 'master-detail', 'page'];

/** Special pages a `page` screen may name (`view.page`), registered by the web app. */
export const PAGE_NAMES: string[] = [];

/** Add names contributed by a module (call before loading documents or building the meta-schema). */
export function extendRegistry(ext: { widgets?: Record<string, WidgetSpec>; cells?: string[]; views?: string[]; pages?: string[] }): void {
  Object.assign(WIDGET_SPECS, ext.widgets ?? {});
  for (const [list, add] of [[CELL_NAMES, ext.cells], [VIEW_NAMES, ext.views], [PAGE_NAMES, ext.pages]] as const) {
    for (const n of add ?? []) if (!list.includes(n)) list.push(n);
  }
}

export function widgetNames(): string[] {
  return Object.keys(WIDGET_SPECS);
}
