/**
 * The runtime's React registries, keyed by the names of src/shared/registry.ts: views (`view.type`), widgets
 * (`ui:widget`), cells (`list.columns[].render`), pages (`view.page`), client-side row/toolbar actions and the
 * dialogs a row action's `dialog` opens. A
 * module adds one with `registerX(name, component)` (and its name with `extendRegistry` on the shared side),
 * without editing the runtime core. The built-ins are registered by the modules that define them (views.ts,
 * widgets.tsx, cells.tsx), so this file stays small and is safe to import from anywhere.
 *
 * A component may be `lazy(() => import(...))`: its code then loads when it is first drawn, not with the page
 * (issue 13). Every place that draws a registered component gives lazy ones a Suspense stand-in.
 */
import type { ComponentType, ReactNode } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { AnyDocument, ScreenDocument } from '../../shared/document.js';
import type { ColumnModel, DictMap, Translate } from '../model/index.js';

/** What every view receives: the document (a screen or a layout document). */
export interface ViewProps {
  doc: AnyDocument;
}

/** What every cell receives. */
export interface CellProps {
  col: ColumnModel;
  value: unknown;
  /** The whole record (lookup cells read the label field beside the value). */
  row: Record<string, unknown>;
  dicts: DictMap;
  lang: string;
}

/** What a registered action dialog receives (a row action's `dialog`): GET `url` with `params` to draw it. */
export interface ActionDialogProps {
  doc: ScreenDocument;
  url: string;
  params: Record<string, unknown>;
  row: Record<string, unknown>;
  onClose: () => void;
}

/** What a registered page receives when a `page` document names it. */
export interface PageProps {
  doc: AnyDocument;
}

/** A client-side action (a row or toolbar button that opens something rather than calling the server). */
export interface ClientAction {
  /** i18n key of the button label. */
  label: string;
  position: 'row' | 'toolbar';
  /** Shown only when this holds (e.g. addChild only on tree documents). */
  applies?: (doc: ScreenDocument) => boolean;
  /** What the button does; `ctx` gives the screen's dialog opener. */
  run: (ctx: ActionContext, row?: Record<string, unknown>) => void;
}

export interface ActionContext {
  doc: ScreenDocument;
  t: Translate;
  /** Opens the add dialog with these fields filled. */
  openAdd: (initial?: Record<string, unknown>) => void;
}

type Registry<T> = Map<string, T>;

/** Whether a registered component is a `lazy()` one (it needs a Suspense boundary around it). */
export function isLazy(c: unknown): boolean {
  return typeof c === 'object' && c !== null && (c as { $$typeof?: symbol }).$$typeof === Symbol.for('react.lazy');
}

const views: Registry<ComponentType<ViewProps>> = new Map();
const widgets: Registry<ComponentType<WidgetProps>> = new Map();
const cells: Registry<ComponentType<CellProps>> = new Map();
const pages: Registry<ComponentType<PageProps>> = new Map();
const actions: Registry<ClientAction> = new Map();
const actionDialogs: Registry<ComponentType<ActionDialogProps>> = new Map();

export function registerView(name: string, c: ComponentType<ViewProps>): void {
  views.set(name, c);
}
export function registerWidget(name: string, c: ComponentType<WidgetProps>): void {
  widgets.set(name, c);
}
export function registerCell(name: string, c: ComponentType<CellProps>): void {
  cells.set(name, c);
}
export function registerPage(name: string, c: ComponentType<PageProps>): void {
  pages.set(name, c);
}
export function registerAction(name: string, a: ClientAction): void {
  actions.set(name, a);
}
export function registerActionDialog(name: string, c: ComponentType<ActionDialogProps>): void {
  actionDialogs.set(name, c);
}

export const viewFor = (name: string) => views.get(name);
export const cellFor = (name: string) => cells.get(name);
export const pageFor = (name: string) => pages.get(name);
export const actionFor = (name: string) => actions.get(name);
export const actionDialogFor = (name: string) => actionDialogs.get(name);

/** The registered widgets as rjsf's `widgets` prop (a fresh object when one was added). */
let widgetCache: { size: number; obj: Record<string, ComponentType<WidgetProps>> } | undefined;
export function widgetRegistry(): Record<string, ComponentType<WidgetProps>> {
  if (!widgetCache || widgetCache.size !== widgets.size) widgetCache = { size: widgets.size, obj: Object.fromEntries(widgets) };
  return widgetCache.obj;
}

/** Client actions of a position that apply to a document, in registration order. */
export function clientActions(doc: ScreenDocument, position: 'row' | 'toolbar'): Array<[string, ClientAction]> {
  return [...actions].filter(([, a]) => a.position === position && (!a.applies || a.applies(doc)));
}

/** Names registered so far (tests compare them with the shared registry). */
export function registeredNames(): { views: string[]; widgets: string[]; cells: string[]; pages: string[]; actions: string[]; actionDialogs: string[] } {
  return { views: [...views.keys()], widgets: [...widgets.keys()], cells: [...cells.keys()], pages: [...pages.keys()], actions: [...actions.keys()], actionDialogs: [...actionDialogs.keys()] };
}

export type { ReactNode };
