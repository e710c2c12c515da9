/**
 * What the buttons of a screen do, for any view: built-ins (add, edit, view, delete, export), named actions of
 * the document (confirm, form dialog, `show` dialog, `download`, `navigate` to a page, a registered `dialog`), and
 * client actions of the registry (addChild). It owns the
 * toasts, confirms and the lazily loaded dialogs, and tells the list controller to refresh after a change.
 */
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { ActionDef, Mode, ScreenDocument } from '../../shared/document.js';
import { builtinPermission } from '../../shared/fields.js';
import { actionRequest, actionUrl, actionsModel, allowed, checkSelection, dialogParams, exportParams, listUrl, navigateTarget, wireKey, type DictMap, type RowItem, type ToolbarItem } from '../model/index.js';
import { useRuntime } from './context.js';
import { useFeedback } from './feedback.js';
import { actionDialogFor, clientActions, type ClientAction } from './registry.js';
import type { ListController, Rec } from './useListController.js';

const FormDialog = lazy(() => import('./FormDialog.js'));
const ActionDialog = lazy(() => import('./ActionDialog.js'));
const ShowDialog = lazy(() => import('./ShowDialog.js'));

/** A row button: the document's (RowItem) or a registered client action. */
export type ScreenRowItem = RowItem | { kind: 'client'; name: string; labelKey: string; permission: string; action: ClientAction };

export const rowItemKey = (item: ScreenRowItem | ToolbarItem) => (item.kind === 'action' ? item.action.name : item.kind === 'client' ? item.name : item.kind);
export const rowItemDanger = (item: ScreenRowItem) => item.kind === 'delete' || (item.kind === 'action' && !!item.action.danger);

function downloadBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An action's reply as the success message's parameters (e.g. 已生成 {{count}} 张结算单). */
function replyParams(res: unknown): Record<string, unknown> | undefined {
  return res && typeof res === 'object' && !Array.isArray(res) ? (res as Record<string, unknown>) : undefined;
}

/** A row action's registered dialog (e.g. flowDiagram), or nothing when no module registered that name. */
function RegisteredDialog({ doc, action, row, onClose }: { doc: ScreenDocument; action: ActionDef; row: Rec; onClose: () => void }) {
  const Dialog = action.dialog ? actionDialogFor(action.dialog.name) : undefined;
  if (!Dialog) return null;
  return <Dialog doc={doc} url={actionUrl(doc, action)} params={dialogParams(action, row)} row={row} onClose={onClose} />;
}

export interface ScreenActionsOptions {
  /** Fields every add dialog starts with (a detail pane: the link to the master). */
  addInitial?: Rec;
}

export function useScreenActions(doc: ScreenDocument, ctl: ListController, dicts: DictMap, opts: ScreenActionsOptions = {}) {
  const { request, permissions, t, lang, navigate } = useRuntime();
  // toasts and confirms: their code loads with the first one
  const [{ toast, modal }, feedbackHolder] = useFeedback();
  const model = useMemo(() => actionsModel(doc, permissions), [doc, permissions]);
  const [dialog, setDialog] = useState<{ mode: Mode; id?: string; initial?: Rec } | null>(null);
  const [actionDialog, setActionDialog] = useState<{ action: ActionDef; row?: Rec; ids?: string[] } | null>(null);
  const [showDialog, setShowDialog] = useState<{ action: ActionDef; row: Rec } | null>(null);
  const [registeredDialog, setRegisteredDialog] = useState<{ action: ActionDef; row: Rec } | null>(null);
  const { refresh } = ctl;

  // Registered client actions need the add permission (they open the add dialog).
  const clientRow = useMemo(
    () =>
      clientActions(doc, 'row')
        .filter(() => allowed(permissions, builtinPermission(doc, 'add')) && !doc.resource.readOnlyApi)
        .map(([name, action]): ScreenRowItem => ({ kind: 'client', name, labelKey: action.label, permission: builtinPermission(doc, 'add'), action })),
    [doc, permissions],
  );

  const openAdd = useCallback((initial?: Rec) => setDialog({ mode: 'add', initial: { ...(opts.addInitial ?? {}), ...(initial ?? {}) } }), [opts.addInitial]);

  const runAction = useCallback(
    (action: ActionDef, target: { row?: Rec; ids?: string[] }) => {
      if (action.selection && target.ids) {
        const warn = checkSelection(target.ids);
        if (warn) return void toast.warning(t(warn));
      }
      // `show`: the records of this row in a read-only table (changes nothing: no confirm, no toast).
      if (action.show && target.row) return setShowDialog({ action, row: target.row });
      // `navigate`: the row's page of the app (the button is shown only when the row has every part of it)
      if (action.navigate && target.row) {
        const to = navigateTarget(action.navigate, target.row);
        if (to) (navigate ?? ((p: string) => window.location.assign(p)))(to);
        return;
      }
      if (action.dialog && target.row) return setRegisteredDialog({ action, row: target.row });
      if (action.form) return setActionDialog({ action, ...target });
      // `download`: the reply is a file, saved under the row's name for it
      if (action.download && target.row) {
        const r = actionRequest(doc, action, target);
        const name = String(target.row[action.download.nameField] ?? '') || 'download';
        return void request<Blob>('GET', r.url, { params: r.params, responseType: 'blob' })
          .then((blob) => downloadBlob(blob, name))
          .catch(() => undefined);
      }
      const go = async () => {
        const r = actionRequest(doc, action, target);
        const res = await request(r.method, r.url, { params: r.params, data: r.data });
        void toast.success(t(action.success ?? 'common.msg.success', replyParams(res)));
        refresh();
      };
      if (action.confirm) {
        modal.confirm({ title: t('common.msg.confirmTitle'), content: t(action.confirm), okText: t('common.action.ok'), cancelText: t('common.action.cancel'), onOk: () => go().catch(() => undefined) });
      } else void go().catch(() => undefined);
    },
    [doc, request, t, toast, modal, refresh, navigate],
  );

  const remove = useCallback(
    (ids: string[]) => {
      const warn = checkSelection(ids);
      if (warn) return void toast.warning(t(warn));
      modal.confirm({
        title: t('common.msg.confirmTitle'),
        content: t('common.msg.deleteConfirm'),
        okText: t('common.action.ok'),
        cancelText: t('common.action.cancel'),
        onOk: async () => {
          try {
            await request('POST', listUrl(doc, 'remove'), { params: { ids: ids.join(',') } });
            void toast.success(t('common.msg.deleteSuccess'));
            refresh();
          } catch {
            /* the web client has shown the error */
          }
        },
      });
    },
    [doc, request, t, toast, modal, refresh],
  );

  const onExport = useCallback(
    async (visible: string[]) => {
      const blob = await request<Blob>('GET', listUrl(doc, 'export'), {
        params: exportParams(doc, { search: ctl.state.search, sorting: ctl.state.sorting }, visible, lang),
        responseType: 'blob',
      });
      downloadBlob(blob, `${t(doc.title)}.xlsx`);
    },
    [doc, request, ctl.state.search, ctl.state.sorting, lang, t],
  );

  const onRowItem = useCallback(
    (item: ScreenRowItem, row: Rec) => {
      const id = wireKey(doc, row);
      if (item.kind === 'view' || item.kind === 'edit') setDialog({ mode: item.kind, id });
      else if (item.kind === 'delete') remove([id]);
      else if (item.kind === 'action') runAction(item.action, { row });
      else if (item.kind === 'client') item.action.run({ doc, t, openAdd }, row);
    },
    [remove, runAction, doc, t, openAdd],
  );

  const onToolbarItem = useCallback(
    (item: ToolbarItem, visibleColumns: string[]) => {
      if (item.kind === 'add') openAdd();
      else if (item.kind === 'delete') remove(ctl.selectedIds);
      else if (item.kind === 'export') void onExport(visibleColumns).catch(() => undefined);
      else if (item.kind === 'action') runAction(item.action, item.action.selection ? { ids: ctl.selectedIds } : {});
    },
    [openAdd, remove, onExport, runAction, ctl.selectedIds],
  );

  const dialogs: ReactNode = (
    <>
      {feedbackHolder}
      <Suspense fallback={null}>
        {dialog && (
          <FormDialog
            doc={doc}
            mode={dialog.mode}
            id={dialog.id}
            initial={dialog.initial}
            dicts={dicts}
            onClose={() => setDialog(null)}
            onSaved={(mode) => {
              void toast.success(t(mode === 'add' ? 'common.msg.addSuccess' : 'common.msg.editSuccess'));
              setDialog(null);
              refresh();
            }}
          />
        )}
        {showDialog && <ShowDialog doc={doc} action={showDialog.action} row={showDialog.row} onClose={() => setShowDialog(null)} />}
        {registeredDialog && <RegisteredDialog doc={doc} action={registeredDialog.action} row={registeredDialog.row} onClose={() => setRegisteredDialog(null)} />}
        {actionDialog && (
          <ActionDialog
            doc={doc}
            action={actionDialog.action}
            row={actionDialog.row}
            ids={actionDialog.ids}
            dicts={dicts}
            onClose={() => setActionDialog(null)}
            onDone={(res) => {
              void toast.success(t(actionDialog.action.success ?? 'common.msg.success', replyParams(res)));
              setActionDialog(null);
              refresh();
            }}
          />
        )}
      </Suspense>
    </>
  );

  const rowItems = useMemo(() => [...model.row, ...clientRow] as ScreenRowItem[], [model.row, clientRow]);
  return { model, rowItems, toolbar: model.toolbar, onRowItem, onToolbarItem, openAdd, dialogs };
}
