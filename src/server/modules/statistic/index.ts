/**
 * Transaction statistics (read-only screen, document orderStatistics over the view canteen_order_statistics):
 *   GET /api/statistic/orderStatistics?current&size&createTime_datege&createTime_datelt[&orderType&status…]
 *       → the page of records (the spec's record fields; orderTypeName as the order_type dictionary's label in the
 *         request language, like the export) plus `summary: {totals, series}` for the range.
 *   GET /api/statistic/orderStatistics/list      the same page and summary (what the generic screen runtime calls:
 *                                                <api>/list; its Summary panel and chart read `summary`)
 *   GET /api/statistic/orderStatistics/summary   only {totals, series}
 * The time range is required (400 请选择时间范围 when either end is missing) and at most 366 days.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, type ServerModule } from '../../context.js';
import { dataScopeOf, listPage, pageEnvelope, pageParams, parseListRequest, recordSerializer } from '../../crud/index.js';
import { HttpError, ok } from '../../lib/http.js';
import type { Condition } from '../../../shared/search.js';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties } from '../../../shared/fields.js';
import { loadDictionaries } from '../../crud/dictionaries.js';
import type { DB } from '../../db/index.js';
import { BusinessError } from '../../lib/errors.js';
import { orderStatistics } from '../ledger/statistics.js';

const DOC_ID = 'orderStatistics';

function rangeOf(conditions: Condition[]): { from: string; to: string } {
  const c = conditions.filter((x) => x.field === 'createTime');
  const from = c.find((x) => x.op === '>=' || x.op === '>')?.value;
  const to = c.find((x) => x.op === '<' || x.op === '<=')?.value;
  if (!from || !to) throw new BusinessError('statistic.msg.timeRange');
  const norm = (v: string | number) => (String(v).length === 10 ? `${v} 00:00:00` : String(v));
  const f = norm(from);
  const t = norm(to);
  const days = (Date.parse(t.replace(' ', 'T') + 'Z') - Date.parse(f.replace(' ', 'T') + 'Z')) / 86400000;
  if (!(days > 0)) throw new BusinessError('statistic.msg.timeRange');
  if (days > 366) throw new BusinessError('statistic.msg.rangeTooLong');
  return { from: f, to: t };
}

async function parse(app: FastifyInstance, req: FastifyRequest) {
  const user = await requirePermission(app, req, 'order_statistics');
  const doc = app.ctx.docs.get(DOC_ID);
  if (!doc) throw new HttpError(404, 'error.notFound');
  const query = (req.query ?? {}) as Record<string, unknown>;
  const { conditions, sort } = parseListRequest(doc, query);
  const range = rangeOf(conditions);
  return { user, doc, query, conditions, sort, range };
}

/** Record fields that carry a name (a string field with x-dict, e.g. orderTypeName): the key becomes its dictionary label in `lang`, as the export writes it. */
async function dictionaryLabels(db: DB, doc: ScreenDocument, tenantId: string, lang: 'zh' | 'en') {
  const named = Object.entries(allProperties(doc.schema)).filter(([, p]) => p.type === 'string' && p['x-dict']) as Array<[string, { 'x-dict': string }]>;
  const dicts = await loadDictionaries(db, [...new Set(named.map(([, p]) => p['x-dict']))], tenantId);
  const labels = new Map([...dicts].map(([code, entries]) => [code, new Map(entries.map((e) => [e.key, lang === 'en' ? e.labelEn : e.label]))]));
  return (rec: Record<string, unknown>) => {
    for (const [field, p] of named) if (rec[field] !== null && rec[field] !== undefined) rec[field] = labels.get(p['x-dict'])?.get(String(rec[field])) ?? rec[field];
    return rec;
  };
}

export const statisticModule: ServerModule = {
  name: 'statistic',
  plugin: async (app) => {
    const page = async (req: FastifyRequest) => {
      const { user, doc, query, conditions, sort, range } = await parse(app, req);
      const db = app.ctx.db();
      const { current, size } = pageParams(doc, query);
      const [{ rows, count }, summary] = await Promise.all([
        listPage(db, doc, { conditions, sort, tenantId: user.tenantId, scope: dataScopeOf(doc, user), limit: size, offset: (current - 1) * size }),
        orderStatistics(db, user.tenantId, range.from, range.to),
      ]);
      const serialize = recordSerializer(doc);
      const label = await dictionaryLabels(db, doc, user.tenantId, req.lang);
      const records = rows.map((r) => label(serialize(r as Record<string, unknown>)));
      return ok({ ...pageEnvelope(records, count, current, size), summary });
    };
    app.get('/api/statistic/orderStatistics', (req) => page(req));
    app.get('/api/statistic/orderStatistics/list', (req) => page(req));
    app.get('/api/statistic/orderStatistics/summary', async (req) => {
      const { user, range } = await parse(app, req);
      return ok(await orderStatistics(app.ctx.db(), user.tenantId, range.from, range.to));
    });
  },
};

export default statisticModule;
