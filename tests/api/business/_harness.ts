/**
 * Business API test harness: one database per test file (PGlite in memory, or DATABASE_URL when set:
 * a fresh schema per file), migrated and seeded like `npm start`, the app built in process, an admin token.
 * `reset()` empties the ledger and business tables between tests (keeps the seed).
 */
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase, pgliteOptions, type Database } from '../../../src/server/db/index.js';
import { loadDocuments } from '../../../src/server/documents.js';
import { prepareDatabase } from '../../../src/server/setup.js';
import { query } from '../../../src/server/lib/sql.js';

const root = path.resolve(__dirname, '../../..');

export interface Harness {
  app: FastifyInstance;
  database: Database;
  db: Database['db'];
  token: string;
  ctx: { tenantId: string; userId: string };
  get(url: string, opts?: { token?: string | null; lang?: string }): Promise<{ status: number; body: any; raw: Buffer; headers: Record<string, any> }>;
  post(url: string, body?: unknown, opts?: { token?: string | null; headers?: Record<string, string>; raw?: Buffer }): Promise<{ status: number; body: any }>;
  reset(): Promise<void>;
  close(): Promise<void>;
  merchants(): Promise<Array<{ id: string; merchant_name: string; fee_ratio: string; status: number }>>;
  addEmployees(n: number, status?: number): Promise<string[]>;
}

export async function startHarness(): Promise<Harness> {
  const url = process.env.DATABASE_URL;
  let schema: string | undefined;
  let dbUrl: string | undefined;
  if (url) {
    schema = `t_biz_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`create database ${schema}`);
    await c.end();
    const u = new URL(url);
    u.pathname = `/${schema}`;
    dbUrl = u.toString();
  }
  const config = loadConfig({ ...process.env, DATABASE_URL: dbUrl ?? '' }, { rootDir: root, logger: false });
  const database = await openDatabase(config, dbUrl ? {} : { pglite: await PGlite.create(await pgliteOptions()) });
  const docs = loadDocuments(root, []);
  await prepareDatabase(database.db, docs, config);
  const app = buildApp({ db: database.db, config, docs });
  await app.ready();
  const md5 = createHash('md5').update('admin').digest('hex');
  const tok = await app.inject({
    method: 'POST',
    url: `/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5}&grant_type=password&scope=all&type=account`,
    headers: { authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'), 'tenant-id': '000000' },
  });
  const token = tok.json().access_token as string;
  if (!token) throw new Error('login failed: ' + tok.body);
  const auth = (t: string | null | undefined) => (t === null ? {} : { 'blade-auth': `bearer ${t ?? token}` });
  const h: Harness = {
    app,
    database,
    db: database.db,
    token,
    ctx: { tenantId: '000000', userId: tok.json().user_id },
    async get(u, opts = {}) {
      const r = await app.inject({ method: 'GET', url: u, headers: { ...auth(opts.token), ...(opts.lang ? { 'accept-language': opts.lang } : {}) } });
      let body: any;
      try {
        body = r.json();
      } catch {
        body = undefined;
      }
      return { status: r.statusCode, body, raw: r.rawPayload, headers: r.headers };
    },
    async post(u, body, opts = {}) {
      const r = await app.inject({
        method: 'POST',
        url: u,
        headers: { ...auth(opts.token), ...(opts.headers ?? {}) },
        ...(opts.raw ? { payload: opts.raw } : body === undefined ? {} : { payload: body as any }),
      });
      return { status: r.statusCode, body: r.json() };
    },
    async reset() {
      await query(
        database.db,
        `truncate canteen_employee, canteen_order, canteen_account_records, canteen_settlement, canteen_order_daily, canteen_banner, canteen_msg_center`,
      );
      await query(database.db, `update canteen_merchant set status = 1`);
    },
    async close() {
      await app.close();
      await database.close();
      if (schema && url) {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        // No FORCE: it would kill pool connections that are still closing (uncaught 57P01 in the test run).
        await c.query(`drop database if exists ${schema}`).catch(() => undefined);
        await c.end();
      }
    },
    async merchants() {
      return query(database.db, `select id::text, merchant_name, fee_ratio::text, status from canteen_merchant where is_deleted = 0 order by id`);
    },
    async addEmployees(n, status = 1) {
      const rows = await query<{ id: string }>(
        database.db,
        `insert into canteen_employee (employee_name, card_no, phone, status)
         select '员工' || g, 'T' || lpad(g::text, 6, '0') || substr(md5(random()::text), 1, 4), '138' || lpad(g::text, 8, '0'), $2
           from generate_series(1, $1::int) g returning id::text`,
        [n, status],
      );
      return rows.map((r) => r.id);
    },
  };
  return h;
}

/** SQL invariants of the ledger; returns the violations (empty = all hold). */
export async function ledgerViolations(db: Database['db']): Promise<string[]> {
  const out: string[] = [];
  const bal = await query<any>(
    db,
    `select e.card_no, e.balance, coalesce(sum(r.amount), 0) as s from canteen_employee e
       left join canteen_account_records r on r.account_type = 2 and r.account_id = e.id
      group by e.id having e.balance <> coalesce(sum(r.amount), 0) or e.balance < 0`,
  );
  for (const b of bal) out.push(`card ${b.card_no}: balance ${b.balance} ≠ records ${b.s}`);
  const pays = await query<any>(
    db,
    `select o.order_no from canteen_order o where o.order_type = 1 and (
        (select count(*) from canteen_account_records r where r.order_id = o.id) <> 2
        or (select coalesce(sum(amount), 0) from canteen_account_records r where r.order_id = o.id) <> 0
        or not exists (select 1 from canteen_account_records r where r.order_id = o.id and r.records_type = 2 and r.amount = -o.pay_amount)
        or not exists (select 1 from canteen_account_records r where r.order_id = o.id and r.records_type = 4 and r.amount = o.pay_amount))`,
  );
  for (const p of pays) out.push(`payment ${p.order_no} lacks its two records`);
  const refunds = await query<any>(
    db,
    `select p.order_no from canteen_order p where p.order_type = 1 and p.refund_amount <>
        (select coalesce(sum(pay_amount), 0) from canteen_order r where r.order_type = 2 and r.original_order_id = p.id)`,
  );
  for (const r of refunds) out.push(`payment ${r.order_no}: refund_amount ≠ its refund orders`);
  const daily = await query<any>(
    db,
    `with o as (select tenant_id, create_time::date as day, merchant_id, coalesce(fee_ratio, 0) as fee_ratio,
                       count(*) filter (where order_type = 1) pc, coalesce(sum(pay_amount) filter (where order_type = 1), 0) pa,
                       count(*) filter (where order_type = 2) rc, coalesce(sum(pay_amount) filter (where order_type = 2), 0) ra
                  from canteen_order where order_type in (1, 2) group by 1, 2, 3, 4)
     select coalesce(o.day, d.day) as day from o full join canteen_order_daily d
         on d.tenant_id = o.tenant_id and d.day = o.day and d.merchant_id = o.merchant_id and d.fee_ratio = o.fee_ratio
      where o.pc is distinct from d.paid_count or o.pa is distinct from d.paid_amount
         or o.rc is distinct from d.refund_count or o.ra is distinct from d.refund_amount`,
  );
  for (const d of daily) out.push(`daily rollup differs on ${d.day}`);
  // Fee of a group of orders (settlement.ts): Σ per fee ratio r the orders carry of round((paid_r − refunded_r) × r / 100, 2).
  const FEE = (where: string) => `(select coalesce(sum(f), 0) from (
      select round((coalesce(sum(pay_amount) filter (where order_type = 1), 0) - coalesce(sum(pay_amount) filter (where order_type = 2), 0))
                   * coalesce(fee_ratio, 0) / 100, 2) as f
        from canteen_order o where ${where} group by coalesce(fee_ratio, 0)) g)`;
  const sets = await query<any>(
    db,
    `select s.id, s.amount from canteen_settlement s where s.is_deleted = 0 and (
        s.amount <> (select coalesce(sum(case order_type when 1 then pay_amount else -pay_amount end), 0) from canteen_order o where o.settlement_id = s.id)
        or s.order_count <> (select count(*) from canteen_order o where o.settlement_id = s.id)
        or s.amount <> s.paid_amount - s.refund_amount or s.fee_amount <> ${FEE('o.settlement_id = s.id')}
        or s.net_amount <> s.amount - s.fee_amount)`,
  );
  for (const s of sets) out.push(`settlement ${s.id} ≠ its orders`);
  // An audited settlement is final: it equals its WHOLE merchant-month (every payment and refund of the merchant
  // made in the month, linked or not), paid − refunded, with the fee as settlement.ts defines it.
  const MONTH = `o.tenant_id = s.tenant_id and o.merchant_id = s.merchant_id and o.is_deleted = 0 and o.order_type in (1, 2)
                 and to_char(o.create_time, 'YYYYMM') = s.settlement_cycle`;
  const audited = await query<any>(
    db,
    `select s.id, s.amount::text as amount, m.paid::text as paid, m.refunded::text as refunded from canteen_settlement s
       cross join lateral (select count(*)::int as n, coalesce(sum(pay_amount) filter (where order_type = 1), 0) as paid,
                                  coalesce(sum(pay_amount) filter (where order_type = 2), 0) as refunded
                             from canteen_order o where ${MONTH}) m
      where s.is_deleted = 0 and s.status = 2 and (
        s.amount <> m.paid - m.refunded or s.paid_amount <> m.paid or s.refund_amount <> m.refunded or s.order_count <> m.n
        or s.fee_amount <> ${FEE(MONTH)})`,
  );
  for (const a of audited) out.push(`audited settlement ${a.id}: amount ${a.amount} ≠ its month's paid ${a.paid} − refunded ${a.refunded}`);
  return out;
}
