/**
 * Raw SQL for modules whose statements are easier to read as SQL than as query-builder chains (the ledger's
 * set-based money movements, reports): `query` runs one parameterised statement ($1, $2 …) and `tx` runs a
 * function in a transaction — or inside the caller's, so a service can be called from a screen hook or another
 * service's transaction and still be all-or-nothing with it.
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';

/** The database or a transaction of it: what every service function takes. */
export type Queryable = Kysely<any> | Transaction<any>;

export async function query<T = Record<string, any>>(db: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  const r = await db.executeQuery(CompiledQuery.raw(text, params as any[]));
  return r.rows as T[];
}

/** `fn` in a transaction: a new one, or `db` itself when it already is one (nested calls share it). */
export async function tx<T>(db: Queryable, fn: (t: Transaction<any>) => Promise<T>): Promise<T> {
  if ((db as any).isTransaction) return fn(db as Transaction<any>);
  return (db as Kysely<any>).transaction().execute(fn);
}
