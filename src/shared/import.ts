/**
 * The `import` built-in as the toolbar action the runtime draws (a dialog with one .xlsx file, its template to
 * download, the per-row error report) — the same shape a document could write by hand in list.actions, so the
 * action dialog needs nothing of its own. The server side is src/server/modules/import.
 */
import type { ActionDef, ScreenDocument } from './document.js';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function importAction(doc: ScreenDocument): ActionDef {
  return {
    name: 'import',
    label: 'import.action.import',
    position: 'toolbar',
    method: 'POST',
    endpoint: 'import',
    permission: `${doc.resource.permissionPrefix}_import`,
    success: 'import.msg.done',
    form: {
      schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', title: 'import.field.file' } } },
      uiSchema: { file: { 'ui:widget': 'file', 'ui:options': { accept: [XLSX_MIME], maxSize: 10 * 1024 * 1024, template: 'import/template', tip: 'import.tip.file' } } },
      width: 600,
    },
  };
}
