/**
 * The merchant module's service: what other modules (the ledger's payments and settlements, the message center,
 * the home page, the demo seeder) may know and do about merchants. canteen_merchant is the table of the merchant
 * document (schemas/business/merchant.json): its columns are derived from the document fields declared in
 * MERCHANT_COLUMNS, which the module checks against the document at start.
 */
import type { LedgerContext } from '../ledger/service.js';
import { documentColumns } from '../../lib/document-columns.js';
import { newId } from '../../lib/ids.js';
import { query, type Queryable } from '../../lib/sql.js';

export const MERCHANT_COLUMNS = documentColumns('merchant', 'canteen_merchant', [
  'merchantNo', 'merchantName', 'feeRatio', 'status', 'loginPhone', 'loginPsw', 'payPsw', 'enableFlag', 'bind', 'wxUserId',
  'contractDaterange', 'contractEnd', 'remarks',
] as const);
const { c, table: T } = MERCHANT_COLUMNS;

export interface MerchantLabel {
  id: string;
  merchantNo: string;
  merchantName: string;
}

export interface PayingMerchant extends MerchantLabel {
  /** Fee ratio in percent (numeric text), 0 when unset. */
  feeRatio: string;
  status: number;
}

/** A merchant about to receive a payment, share-locked for the caller's transaction (it cannot change meanwhile). */
export async function lockMerchantForPayment(t: Queryable, tenantId: string, id: string): Promise<PayingMerchant | undefined> {
  const [m] = await query<PayingMerchant>(
    t,
    `select id, ${c.merchantNo} as "merchantNo", ${c.merchantName} as "merchantName", coalesce(${c.feeRatio}, 0) as "feeRatio", ${c.status} as status
       from ${T} where id = $1 and tenant_id = $2 and is_deleted = 0 for share`,
    [id, tenantId],
  );
  return m;
}

/** The ids of `ids` that name no merchant of the tenant (removed ones included). */
export async function unknownMerchantIds(db: Queryable, tenantId: string, ids: string[]): Promise<string[]> {
  const valid = ids.filter((i) => /^[0-9]{1,19}$/.test(i));
  const found = valid.length
    ? await query<{ id: string }>(db, `select id::text as id from ${T} where tenant_id = $1 and is_deleted = 0 and id = any($2::bigint[])`, [tenantId, valid])
    : [];
  const have = new Set(found.map((r) => r.id));
  return ids.filter((i) => !have.has(i));
}

/** Number and name of merchants by id — removed ones too (their past orders still settle under their name). */
export async function merchantLabels(db: Queryable, tenantId: string, ids: string[]): Promise<MerchantLabel[]> {
  if (!ids.length) return [];
  return query<MerchantLabel>(
    db,
    `select id::text as id, ${c.merchantNo} as "merchantNo", ${c.merchantName} as "merchantName" from ${T} where tenant_id = $1 and id = any($2::bigint[])`,
    [tenantId, ids],
  );
}

/** The name of a (not removed) merchant of the tenant. */
export async function merchantName(db: Queryable, tenantId: string, id: string): Promise<string | undefined> {
  const [r] = await query<{ name: string }>(db, `select ${c.merchantName} as name from ${T} where id = $1 and tenant_id = $2 and is_deleted = 0`, [id, tenantId]);
  return r?.name;
}

/** How many merchants the tenant has (not removed). */
export async function countMerchants(db: Queryable, tenantId: string): Promise<number> {
  const [r] = await query<{ n: string }>(db, `select count(*)::text as n from ${T} where tenant_id = $1 and is_deleted = 0`, [tenantId]);
  return Number(r?.n ?? 0);
}

/** Change columns of one merchant of the tenant (the row actions); false when there is no such merchant. */
export async function updateMerchant(db: Queryable, tenantId: string, id: string, values: Partial<Record<keyof typeof c, unknown>>, userId: string, time: string): Promise<boolean> {
  const fields = Object.keys(values) as Array<keyof typeof c>;
  const sets = fields.map((f, i) => `${c[f]} = $${i + 5}`);
  const rows = await query(
    db,
    `update ${T} set ${[...sets, 'update_user = $3', 'update_time = $4::timestamp'].join(', ')} where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
    [id, tenantId, userId, time, ...fields.map((f) => values[f])],
  );
  return rows.length > 0;
}

// ---- demo data (ledger/demo.ts) ----

/** Add `count` open demo merchants (numbered SHD00000001…, fee ratios cycling 0–5 %), dated `nowSql`. */
export async function seedDemoMerchants(t: Queryable, ctx: LedgerContext, count: number, nowSql: string): Promise<void> {
  if (count <= 0) return;
  const ids = Array.from({ length: count }, () => newId());
  await query(
    t,
    `insert into ${T} (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, ${c.status}, is_deleted,
            ${c.merchantNo}, ${c.merchantName}, ${c.loginPhone}, ${c.feeRatio}, ${c.enableFlag}, ${c.bind}, ${c.contractDaterange}, ${c.contractEnd}, ${c.remarks})
     select x.id, $1, $3, $4, ${nowSql}, $3, ${nowSql}, 1, 0,
            'SHD' || lpad(g::text, 8, '0'), '档口' || lpad(g::text, 4, '0'), '139' || lpad(g::text, 8, '0'),
            (array[0, 0.5, 1, 1.5, 2, 2.5, 3, 5])[1 + (g % 8)], 1, 1, '["2026-01-01","2027-12-31"]'::jsonb, date '2027-12-31', '演示数据'
       from unnest($2::bigint[]) with ordinality as x(id, g)`,
    [ctx.tenantId, ids, ctx.userId ?? null, ctx.deptId ?? null],
  );
}

/** Open merchants (status 1) of the tenant, by id: what demo payments are drawn from. */
export async function openMerchants(db: Queryable, tenantId: string): Promise<Array<PayingMerchant>> {
  return query<PayingMerchant>(
    db,
    `select id::text as id, ${c.merchantNo} as "merchantNo", ${c.merchantName} as "merchantName", coalesce(${c.feeRatio}, 0)::text as "feeRatio", ${c.status} as status
       from ${T} where tenant_id = $1 and is_deleted = 0 and ${c.status} = 1 order by id`,
    [tenantId],
  );
}

/** The tenant's first `n` merchants (by id): the demo messages' subjects. */
export async function firstMerchants(db: Queryable, tenantId: string, n: number): Promise<MerchantLabel[]> {
  return query<MerchantLabel>(
    db,
    `select id::text as id, ${c.merchantNo} as "merchantNo", ${c.merchantName} as "merchantName" from ${T} where tenant_id = $1 and is_deleted = 0 order by id limit $2`,
    [tenantId, n],
  );
}
