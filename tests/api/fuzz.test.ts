/**
 * Fuzz suite (issue 14): for every document's submit and every action of its list, bodies derived from the
 * document's own schema, each carrying at least one defect the server must refuse — a wrong type, a number
 * out of range, NaN/Infinity (raw JSON), a NUL or over-long string, an object where a scalar belongs, a
 * missing required field, a reversed range, a bad id — plus noise (unknown fields, nested values, huge
 * strings). Expected: never a 5xx, and nothing written (a checksum of every table's rows before and after).
 * fast-check with a fixed seed (FUZZ_SEED to change it); a failure prints the seed and the counterexample.
 * Runs on PGlite and, with DATABASE_URL, on PostgreSQL; rows of a demo ledger give the actions real ids.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_DEMO, seedDemoLedger } from '../../src/server/modules/ledger/demo.js';
import { ADMIN_TENANT, SEED_IDS } from '../../src/server/seed/index.js';
import type { ActionDef, FieldSchema, ScreenDocument } from '../../src/shared/document.js';
import { formSchema } from '../../src/shared/form.js';
import { merchantBody, startTestServer, type TestServer } from './helpers.js';
import { recordSuite } from './suite-report.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS_SUBMIT = Number(process.env.FUZZ_RUNS ?? 100);
const RUNS_ACTION = Math.max(5, Math.round(RUNS_SUBMIT / 2));
/** Tables whose rows change by design on any call (sessions, throttling, captchas, serial counters, the server's own logs). */
const BOOKKEEPING = new Set(['blade_token_revoked', 'blade_login_failure', 'blade_login_failure_ip', 'blade_captcha', 'blade_serial', 'shell_client_log', 'blade_log_api', 'blade_log_error', 'blade_log_usual']);

let t: TestServer;
let admin: string;
const counts = { requests: 0, cases: 0, fiveHundreds: 0, rowsWritten: 0 };
const failures: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  await seedDemoLedger(t.database.db, { tenantId: ADMIN_TENANT, userId: SEED_IDS.admin, deptId: SEED_IDS.dept }, { ...SMALL_DEMO, employees: 10, orders: 30, months: 2 });
  const m = await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ merchantName: '模糊测试商家' }) });
  if (m.status !== 200) throw new Error(`setup merchant: ${JSON.stringify(m.body)}`);
}, 180_000);
afterAll(async () => {
  console.log(`fuzz (seed ${SEED}): ${counts.requests} requests, ${counts.cases} cases, ${counts.fiveHundreds} × 5xx, ${counts.rowsWritten} tables written`);
  recordSuite('fuzz', counts);
  await t?.close();
});

/** md5 of every table's rows (bookkeeping tables left out), to prove nothing was written. */
async function snapshot(): Promise<Map<string, string>> {
  const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(t.database.db);
  const out = new Map<string, string>();
  for (const { name } of tables.rows) {
    if (BOOKKEEPING.has(name)) continue;
    const r = await sql<{ h: string; n: string }>`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h, count(*) as n from ${sql.table(name)} x`.execute(t.database.db);
    out.set(name, `${r.rows[0].n}:${r.rows[0].h}`);
  }
  return out;
}

function diff(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...b].filter(([k, v]) => a.get(k) !== v).map(([k, v]) => `${k}: ${a.get(k)} → ${v}`);
}

// ---- arbitraries from a schema ----------------------------------------------------------------------

const DATE = fc.date({ min: new Date('1990-01-01'), max: new Date('2090-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const DATETIME = fc.tuple(DATE, fc.integer({ min: 0, max: 86399 })).map(([d, s]) => `${d} ${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`);

function plausible(f: FieldSchema): fc.Arbitrary<unknown> {
  if (f.type === 'integer') return fc.integer({ min: (f.minimum as number) ?? -5, max: (f.maximum as number) ?? 1000 });
  if (f.type === 'number') return fc.double({ min: (f.minimum as number) ?? -5, max: (f.maximum as number) ?? 1000, noNaN: true, noDefaultInfinity: true });
  if (f.type === 'boolean') return fc.boolean();
  if (f.type === 'array') {
    const item = (f.items ?? {}) as FieldSchema;
    return fc.array(item.type ? plausible(item) : fc.string(), { maxLength: (f.maxItems as number) ?? 3 });
  }
  if (f.format === 'date') return DATE;
  if (f.format === 'date-time') return DATETIME;
  return fc.string({ maxLength: (f.maxLength as number) ?? 20 });
}

type Mutation = { kind: string; apply: (body: Record<string, unknown>) => void };

const OBJECT = fc.constantFrom<unknown>({ a: { b: { c: [1, { d: 'x' }] } } }, { $gt: '' }, { toString: 'x' }, JSON.parse('{"__proto__": {"admin": 1}}'), [[['deep']]]);

/** Defects of one field the server must refuse (only for fields the form of this mode validates). */
function mutations(field: string, f: FieldSchema, required: boolean): fc.Arbitrary<Mutation>[] {
  const set = (kind: string, v: unknown): Mutation => ({ kind: `${kind} ${field}`, apply: (b) => void (b[field] = v) });
  const out: fc.Arbitrary<Mutation>[] = [];
  if (f.type === 'string') {
    out.push(fc.oneof(fc.integer(), fc.boolean(), OBJECT, fc.array(fc.integer(), { minLength: 1 })).map((v) => set('wrong type', v)));
    out.push(fc.string({ maxLength: 10 }).map((s) => set('NUL in', `${s}\u0000${s}`)));
    if (typeof f.maxLength === 'number') out.push(fc.integer({ min: 1, max: 200_000 }).map((n) => set('too long', 'x'.repeat((f.maxLength as number) + n))));
    if (f.format === 'date' || f.format === 'date-time') out.push(fc.constantFrom('0000-01-01', '2026-02-30', '2026-13-01', '99999-01-01', 'yesterday').map((v) => set('bad date', f.format === 'date' ? v : `${v} 00:00:00`)));
  }
  if (f.type === 'integer' || f.type === 'number') {
    out.push(fc.oneof(fc.string({ minLength: 1 }).filter((s) => !/^\s*-?\d/.test(s)), OBJECT, fc.boolean(), fc.array(fc.integer(), { minLength: 1 })).map((v) => set('wrong type', v)));
    if (typeof f.maximum === 'number') out.push(fc.oneof(fc.constant(1e308), fc.integer({ min: 1, max: 1e9 }).map((n) => (f.maximum as number) + n)).map((v) => set('above maximum', v)));
    if (typeof f.minimum === 'number') out.push(fc.oneof(fc.constant(-1e308), fc.integer({ min: 1, max: 1e9 }).map((n) => (f.minimum as number) - n)).map((v) => set('below minimum', v)));
    if (typeof f.exclusiveMinimum === 'number') out.push(fc.constant(set('not above exclusiveMinimum', f.exclusiveMinimum)));
    if (f.type === 'integer') out.push(fc.double({ min: 0.01, max: 0.99, noNaN: true }).map((d) => set('fraction for integer', 1 + d)));
  }
  if (f.type === 'array') {
    out.push(fc.oneof(fc.string(), fc.integer(), OBJECT).map((v) => set('wrong type', v)));
    const item = (f.items ?? {}) as FieldSchema;
    if (f.maxItems === 2 && (item.format === 'date' || item.format === 'date-time')) {
      out.push(fc.tuple(DATE, DATE).filter(([a, b]) => a !== b).map(([a, b]) => {
        const [lo, hi] = a < b ? [a, b] : [b, a];
        const v = item.format === 'date' ? [hi, lo] : [`${hi} 00:00:00`, `${lo} 00:00:00`];
        return set('reversed range', v);
      }));
    }
  }
  if (required) out.push(fc.constant<Mutation>({ kind: `missing required ${field}`, apply: (b) => void delete b[field] }));
  return out;
}

/** Noise that must not change the verdict: unknown fields (also nested), huge strings in them. */
const NOISE = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).map((k) => `zz_${k}`), fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constant('y'.repeat(100_000))), { maxKeys: 3 });

interface Case {
  body: Record<string, unknown>;
  kinds: string[];
  /** Raw JSON text instead of the body (NaN / Infinity are not JSON). */
  raw?: string;
}

/**
 * Known-good bodies (each is submitted once in the setup, which proves it valid): half the cases are one
 * of these with exactly one defect, so a defect cannot hide behind another field's refusal.
 */
const VALID: Record<string, () => Record<string, unknown>> = {
  merchant: () => merchantBody({ merchantName: '模糊基准' }),
  banner: () => ({ putPlatform: 1, bannerTitle: 'Hello', sort: 10, enableFlag: 1 }),
};

/** A body of the form's fields, with 1–3 defects and some noise (or a valid body with one defect). */
function bodies(schema: { properties: Record<string, FieldSchema>; required?: string[] }, valid?: () => Record<string, unknown>, requiredIsDefect = true): fc.Arbitrary<Case> | undefined {
  const props = Object.fromEntries(Object.entries(schema.properties).filter(([, f]) => !f.readOnly));
  // A module action may give a missing form field a meaning (order refund without amount = the whole
  // refundable amount), so "missing required" is a defect only where the generic submit validates the form.
  const muts = Object.entries(props).flatMap(([k, f]) => mutations(k, f, requiredIsDefect && (schema.required ?? []).includes(k)));
  const numeric = Object.entries(props).filter(([, f]) => f.type === 'number' || f.type === 'integer').map(([k]) => k);
  if (!muts.length) return undefined;
  const base = fc.record(Object.fromEntries(Object.entries(props).map(([k, f]) => [k, plausible(f)])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>;
  const oneDefect = valid ? fc.oneof(...muts).map((m) => {
    const body = structuredClone(valid());
    m.apply(body);
    return { body, kinds: [`valid body with ${m.kind}`] } as Case;
  }) : undefined;
  const random = fc
    .tuple(base, fc.array(fc.oneof(...muts), { minLength: 1, maxLength: 3 }), NOISE, numeric.length ? fc.option(fc.tuple(fc.constantFrom(...numeric), fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999')), { freq: 6 }) : fc.constant(null))
    .map(([b, ms, noise, nan]) => {
      const body: Record<string, unknown> = { ...b, ...noise };
      for (const m of ms) m.apply(body);
      const kinds = ms.map((m) => m.kind);
      if (!nan) return { body, kinds };
      const marker = '__NAN_MARKER__';
      body[nan[0]] = marker;
      return { body, kinds: [...kinds, `${nan[1]} in ${nan[0]}`], raw: JSON.stringify(body).replace(`"${marker}"`, nan[1]) };
    });
  return oneDefect ? fc.oneof(random, oneDefect) : random;
}

async function send(method: 'GET' | 'POST', url: string, c: Case, query: Record<string, string> = {}) {
  counts.requests++;
  const opts = method === 'GET'
    ? { method, url, query: { ...query, ...Object.fromEntries(Object.entries(c.body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? ''])) } }
    : { method, url, query, payload: c.raw ?? JSON.stringify(c.body), headers: { 'content-type': 'application/json' } };
  const r = await t.call(admin, opts as Parameters<TestServer['call']>[1]);
  if (r.status >= 500) counts.fiveHundreds++;
  return r;
}

async function someId(doc: ScreenDocument): Promise<string | undefined> {
  const r = await sql<{ id: string }>`select id::text as id from ${sql.table(doc.resource.table)} order by id limit 1`.execute(t.database.db).catch(() => ({ rows: [] as { id: string }[] }));
  return r.rows[0]?.id;
}

const BAD_IDS = fc.constantFrom<unknown>('9999999999999999999', '-1', '0', 'abc', '1\u00002', '', ' ', '1,2,x', 1e30, -5, { id: 1 }, [1, [2]], 'x'.repeat(5000), "1' or '1'='1");

async function check(name: string, property: fc.IAsyncProperty<[Case]> | fc.IAsyncProperty<[unknown]>, numRuns: number) {
  const before = await snapshot();
  try {
    await fc.assert(property as fc.IAsyncProperty<unknown[]>, { seed: SEED, numRuns, endOnFailure: true });
  } catch (e) {
    failures.push(`${name} (seed ${SEED}): ${(e as Error).message.slice(0, 2000)}`);
  }
  const written = diff(before, await snapshot());
  counts.rowsWritten += written.length;
  if (written.length) failures.push(`${name} (seed ${SEED}) wrote rows: ${written.join('; ')}`);
}

describe('fuzz: schema-derived bad bodies', () => {
  it('every document submit: 4xx, never 5xx, nothing written', async () => {
    failures.length = 0;
    for (const doc of t.app.ctx.docs.all) {
      const valid = VALID[doc.id];
      if (valid) {
        const ok = await t.call(admin, { method: 'POST', url: `${doc.resource.api}/submit`, payload: valid() });
        expect(ok.status, `the valid ${doc.id} example: ${JSON.stringify(ok.body)}`).toBe(200);
      }
      const arb = bodies(formSchema(doc, 'add').schema as { properties: Record<string, FieldSchema>; required?: string[] }, valid);
      if (!arb) continue;
      await check(`${doc.id} submit`, fc.asyncProperty(arb, async (c) => {
        counts.cases++;
        const r = await send('POST', `${doc.resource.api}/submit`, c);
        if (r.status >= 500 || r.status < 400) throw new Error(`${r.status} for [${c.kinds.join(', ')}]: ${JSON.stringify(r.body).slice(0, 300)}`);
      }), RUNS_SUBMIT);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('every list action: bad ids and bad forms are refused, never 5xx, nothing written', async () => {
    failures.length = 0;
    for (const doc of t.app.ctx.docs.all) {
      for (const action of (doc.list.actions ?? []) as ActionDef[]) {
        // read-only listings and dialogs, and page links, write nothing to prove absent
        if (action.show || action.dialog || !action.endpoint || !action.method) continue;
        const method = action.method;
        const url = action.endpoint.startsWith('/api/') ? action.endpoint : `${doc.resource.api}/${action.endpoint}`;
        const idParam = action.selection ? 'ids' : 'id';
        // 1. a bad id, with an empty or well-formed-looking body
        await check(`${doc.id}.${action.name} bad id`, fc.asyncProperty(BAD_IDS, async (id) => {
          counts.cases++;
          const c: Case = { body: { [idParam]: id }, kinds: [`bad ${idParam} ${JSON.stringify(id).slice(0, 40)}`] };
          const r = action.method === 'GET' ? await send('GET', url, { body: {}, kinds: c.kinds }, { [idParam]: typeof id === 'string' ? id : JSON.stringify(id) }) : await send('POST', url, c, {});
          if (r.status >= 500 || r.status < 400) throw new Error(`${r.status} for [${c.kinds.join(', ')}]: ${JSON.stringify(r.body).slice(0, 300)}`);
        }), RUNS_ACTION);
        // 2. a real row with a defective form
        const form = action.form?.schema as { properties: Record<string, FieldSchema>; required?: string[] } | undefined;
        const arb = form ? bodies(form, undefined, false) : undefined;
        if (!arb) continue;
        const id = await someId(doc);
        await check(`${doc.id}.${action.name} bad form`, fc.asyncProperty(arb, async (c) => {
          counts.cases++;
          const withId = { ...c, body: { ...c.body, ...(id ? { [idParam]: id } : {}) } };
          const r = await send(method, url, withId, id ? { [idParam]: id } : {});
          if (r.status >= 500 || r.status < 400) throw new Error(`${r.status} for [${c.kinds.join(', ')}]: ${JSON.stringify(r.body).slice(0, 300)}`);
        }), RUNS_ACTION);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
