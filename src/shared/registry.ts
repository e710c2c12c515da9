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
export const COMMON_UI_OPTIONS = ['tip', 'preview'];

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
  file: { options: ['accept', 'maxSize', 'template'] },
  json: { options: ['rows'] },
  /** A Quartz cron expression with its next run times (ui:options.preview: endpoint under resource.api). */
  cron: { options: ['preview'] },
  treeSelect: { options: ['tree', 'multiple', 'checkStrictly', 'leafOnly'] },
  icon: { options: [] },
  /** A BPMN 2.0 XML field edited with the workflow designer (the viewer when read-only); ui:options.height in px. */
  bpmn: { options: ['height'] },
};

/** Cell renderers of list columns (dictionary and lookup cells are inferred from x-dict / x-lookup). */
export const CELL_NAMES = ['text', 'image', 'link', 'bytes', 'money', 'json', 'percent', 'icon', 'daterange', 'tag'];

/** Views a screen document may choose (`view.type`). */
export const VIEW_NAMES = ['list', 'tree', 'master-detail', 'page', 'flowForm'];

/** Dialogs a row action may open (`list.actions[].dialog.name`), registered by the runtime (registerActionDialog). */
export const ACTION_DIALOG_NAMES = ['flowDiagram'];

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

/** The ui:options keys a widget reads (its own and the common ones); undefined for an unknown widget. */
export function widgetOptions(widget: string): string[] | undefined {
  const spec = WIDGET_SPECS[widget];
  return spec ? [...spec.options, ...COMMON_UI_OPTIONS] : undefined;
}

/** What a field looks like to widget inference (a subset of FieldSchema, so this file imports nothing). */
interface InferredFrom {
  type?: string;
  format?: string;
  writeOnly?: boolean;
  'x-dict'?: string;
  'x-password'?: boolean;
  'x-secret'?: boolean;
  items?: { format?: string };
}

/**
 * The widget a field gets without `ui:widget`: x-dict → dict, write-only, x-password or x-secret → password,
 * date/date-time/yyyyMM → date/datetime/month, numbers → number, array of dates → daterange, object → json,
 * else text.
 */
export function defaultWidget(f: InferredFrom): string {
  if (f['x-dict']) return 'dict';
  if (f.writeOnly || f['x-password'] || f['x-secret']) return 'password';
  if (f.format === 'date') return 'date';
  if (f.format === 'date-time') return 'datetime';
  if (f.format === 'yyyyMM') return 'month';
  if (f.type === 'integer' || f.type === 'number') return 'number';
  if (f.type === 'array' && f.items?.format === 'date') return 'daterange';
  if (f.type === 'object') return 'json';
  return 'text';
}
