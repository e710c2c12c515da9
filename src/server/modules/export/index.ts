/**
 * Export for every screen document that offers it (list.builtins includes 'export', the default):
 *   GET <resource.api>/export?<the list's search params>&columns=a,b,c&lang=zh|en[&ascs|descs]
 * → an .xlsx attachment: the requested visible columns (default: the document's non-hidden columns) with
 * headers and dictionary labels in the requested language, looked-up fields by their labels, rows in the list's order.
 *
 * It reuses the CRUD plugin's list query (same search whitelist, tenant scope, required searches, sort) and
 * streams: batches of rows (batches.ts: a cursor on PostgreSQL, id batches on the embedded database) feed
 * exceljs' streaming WorkbookWriter, which writes straight into the response, waiting for the socket to
 * drain — memory stays flat whatever the row count. Permission: <permissionPrefix>_export.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ScreenDocument } from '../../../shared/document.js';
import { builtins, listableProperties } from '../../../shared/fields.js';
import { requirePermission, type ServerModule } from '../../context.js';
import { loadDictionaries } from '../../crud/dictionaries.js';
import { addLookups, lookupFields } from '../../crud/lookup.js';
import { dataScopeOf, parseListRequest, readableFields } from '../../crud/index.js';
import { localDateTime } from '../../lib/time.js';
import { BusinessError } from '../../lib/errors.js';
import { loadExcel } from '../../lib/lazyImport.js';
import { forEachExportBatch } from './batches.js';

/** code → key → label in the request language (the dictionaries the list shows). */
async function dictLabels(app: FastifyInstance, codes: string[], tenantId: string, lang: 'zh' | 'en') {
  const out = new Map<string, Map<string, string>>();
  for (const [code, entries] of await loadDictionaries(app.ctx.db(), codes, tenantId)) {
    out.set(code, new Map(entries.map((e) => [e.key, lang === 'en' ? e.labelEn : e.label])));
  }
  return out;
}

function mountExport(app: FastifyInstance, doc: ScreenDocument, url: string): void {
  if (app.hasRoute({ method: 'GET', url })) return;
  app.get(url, async (req, reply) => {
    const user = await requirePermission(app, req, `${doc.resource.permissionPrefix}_export`);
    const q = (req.query ?? {}) as Record<string, unknown>;
    const lang = req.lang;
    const t = (key: string) => app.ctx.i18n.t(lang, key);
    const readable = new Map(readableFields(doc).map((f) => [f.field, f]));
    const requested =
      typeof q.columns === 'string' && q.columns.trim()
        ? q.columns.split(',').map((s) => s.trim()).filter(Boolean)
        : doc.list.columns.filter((c) => !c.hidden).map((c) => c.field);
    const bad = requested.filter((f) => !readable.has(f));
    if (bad.length || !requested.length) throw new BusinessError('export.msg.badColumns', { columns: bad.join(', ') });
    const fields = [...new Set(requested)].map((f) => readable.get(f)!);
    const { conditions, sort } = parseListRequest(doc, q, app.ctx.docs);
    for (const h of app.ctx.hooks.get(doc.id) ?? []) await h.beforeExport?.({ req, doc, db: app.ctx.db() });
    const props = listableProperties(doc);
    const labelOf = new Map(doc.list.columns.map((c) => [c.field, c.label]));
    const dicts = await dictLabels(app, [...new Set(fields.map((f) => props[f.field]?.['x-dict']).filter(Boolean))] as string[], user.tenantId, lang);

    const out = new PassThrough();
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const ws = wb.addWorksheet(t(doc.title).slice(0, 31) || doc.id);
    ws.columns = fields.map((f) => {
      const width = doc.list.columns.find((c) => c.field === f.field)?.width;
      return { header: t(labelOf.get(f.field) ?? props[f.field]?.title ?? f.field), key: f.field, width: width ? Math.max(8, Math.round(width / 7)) : 18 };
    });
    const convert = (field: string, v: unknown): unknown => {
      if (v === null || v === undefined) return null;
      const p = props[field];
      const code = p?.['x-dict'];
      if (code) return dicts.get(code)?.get(String(v)) ?? v;
      if (p && (p.type === 'number' || p.type === 'integer') && typeof v === 'string' && v !== '') {
        const n = Number(v);
        return Number.isFinite(n) ? n : v;
      }
      if (typeof v === 'object') return JSON.stringify(v);
      return v;
    };
    const lookups = new Map(lookupFields(doc).filter((l) => fields.some((f) => f.field === l.field)).map((l) => [l.field, l.as]));
    const pump = async () => {
      await forEachExportBatch(
        app.ctx.db(),
        doc,
        { conditions, sort, tenantId: user.tenantId, scope: dataScopeOf(doc, user), fields, singleConnection: !app.ctx.config.databaseUrl },
        async (rows) => {
          // a looked-up field (a department id, roles …) is exported as the list shows it: by its label
          if (lookups.size) await addLookups(app.ctx.db(), app.ctx.docs, doc, rows as Array<Record<string, unknown>>, user);
          for (const row of rows) ws.addRow(fields.map((f) => (lookups.has(f.field) ? row[lookups.get(f.field)!] ?? null : convert(f.field, row[f.field])))).commit();
          // Backpressure: let the socket take what is buffered before reading the next batch.
          await new Promise((res) => setImmediate(res));
          while (!out.destroyed && out.readableLength > 4 * 1024 * 1024) await new Promise((res) => setTimeout(res, 10));
        },
      );
      ws.commit();
      await wb.commit();
    };
    pump().catch((err) => {
      req.log.error(err);
      out.destroy(err);
    });
    const stamp = localDateTime(app.ctx.config.appTimezone).replace(/[- :]/g, '');
    const name = `${t(doc.title)}-${stamp}.xlsx`;
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${doc.id}-${stamp}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(out);
  });
}

export const exportModule: ServerModule = {
  name: 'export',
  plugin: async (app) => {
    for (const doc of app.ctx.docs.all) {
      if (!builtins(doc).has('export')) continue;
      mountExport(app, doc, `${doc.resource.api}/export`);
      // a path some clients call instead (BladeX users: export-user)
      if (doc.resource.aliases?.export) mountExport(app, doc, `${doc.resource.api}/${doc.resource.aliases.export}`);
    }
  },
};

export default exportModule;
