/**
 * Dictionary entries by code for the caller's tenant — the one reader behind the web app's dictionary batch,
 * the export's labels and the server-side checks (submit validation, import): a business dictionary of the
 * tenant (blade_dict_biz) wins over the system tenant's business one, which wins over a system one (blade_dict)
 * with the same code; entries in sort order.
 */
import { sql } from 'kysely';
import type { DB } from '../db/index.js';

export interface DictEntry {
  key: string;
  label: string;
  labelEn: string;
  sort: number;
}

/** The administrators' tenant, whose business dictionaries are the defaults of every other tenant. */
export const SYSTEM_TENANT = '000000';

export async function loadDictionaries(db: DB, codes: string[], tenantId: string): Promise<Map<string, DictEntry[]>> {
  const out = new Map<string, DictEntry[]>();
  const unique = [...new Set(codes)];
  if (!unique.length) return out;
  // rank: 2 = the tenant's own business dictionary, 1 = the system tenant's (SYSTEM_TENANT) business one,
  // 0 = system dictionary; per code only the entries of the highest rank present are used, so a tenant
  // without its own business dictionaries still has (and is checked against) the system's.
  const r = await sql<{ rank: number; code: string; dict_key: string; dict_value: string; dict_value_en: string | null; sort: number | null }>`
    select 0 as rank, code, dict_key, dict_value, dict_value_en, sort, id from blade_dict
     where code = any(${unique}) and parent_id <> 0 and is_deleted = 0
    union all
    select case when tenant_id = ${tenantId} then 2 else 1 end, code, dict_key, dict_value, dict_value_en, sort, id from blade_dict_biz
     where code = any(${unique}) and parent_id <> 0 and is_deleted = 0 and tenant_id in (${tenantId}, ${SYSTEM_TENANT})
    order by 1, 2, 6, 7`.execute(db);
  const best = new Map<string, number>();
  for (const x of r.rows) best.set(x.code, Math.max(best.get(x.code) ?? 0, Number(x.rank)));
  for (const x of r.rows) {
    if (Number(x.rank) !== best.get(x.code)) continue;
    let list = out.get(x.code);
    if (!list) out.set(x.code, (list = []));
    list.push({ key: String(x.dict_key), label: x.dict_value, labelEn: x.dict_value_en || x.dict_value, sort: Number(x.sort ?? 0) });
  }
  return out;
}

/** `1 男、2 女、3 未知` (zh) / `1 Male, 2 Female, 3 Unknown` (en): the choices named in a refusal. */
export function describeChoices(entries: DictEntry[], lang: 'zh' | 'en', withKeys = true): string {
  return entries.map((e) => (withKeys ? `${e.key} ` : '') + (lang === 'en' ? e.labelEn : e.label)).join(lang === 'en' ? ', ' : '、');
}
