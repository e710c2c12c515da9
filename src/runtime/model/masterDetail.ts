/**
 * Master-detail layouts as data: which list each pane asks for, the link a selected master gives the detail
 * (list params and the add dialog's starting values), and both documents with the layout's dialog width.
 */
import type { MasterDetailView, ScreenDocument } from '../../shared/document.js';
import { recordKey } from './tree.js';

type Rec = Record<string, unknown>;

export interface PaneModel {
  endpoint: string;
  /** Params of every request (the detail: `<link>=<master key>`). */
  fixed?: Rec;
  /** Values the add dialog starts with (the detail: the link filled). */
  addInitial?: Rec;
}

export function masterPane(view: MasterDetailView): PaneModel {
  return { endpoint: view.masterList ?? 'list' };
}

/** The detail pane for a selected master key; null while nothing is selected. */
export function detailPane(view: MasterDetailView, masterKey: string | undefined): PaneModel | null {
  if (!masterKey) return null;
  return { endpoint: view.detailList ?? 'list', fixed: { [view.link]: masterKey }, addInitial: { [view.link]: masterKey } };
}

/** The key of a master row the detail's link field holds. */
export function masterKeyOf(master: ScreenDocument, row: Rec): string {
  return recordKey(master, row);
}

/** A document whose dialogs take the layout's width (dictionaries: 880). */
export function withDialogWidth(doc: ScreenDocument, width: number | undefined): ScreenDocument {
  return width ? { ...doc, dialog: { ...(doc.dialog ?? {}), width } } : doc;
}
