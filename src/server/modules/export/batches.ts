/**
 * The rows of an export, in list order, handed over in batches — two ways, by database:
 * - PostgreSQL (a pool of connections): a server-side cursor in one read-only transaction, FETCH per batch.
 *   One consistent snapshot, flat memory; other requests use the pool's other connections.
 * - Embedded PGlite (one connection for the whole server): a cursor would hold that connection, and every
 *   other request of every user would wait until the download ends. Instead the ids are read first, in list
 *   order (one short query; memory O(rows) for ids only, ~50 bytes each), then the rows are read by id, a
 *   batch per short query, so other requests get the connection between batches. A row changed meanwhile
 *   is exported as it is when its batch is read; a row deleted meanwhile is left out.
 */
import { CompiledQuery, sql } from 'kysely';
import type { ScreenDocument } from '../../../shared/document.js';
import { buildListQuery, type ListQueryOptions } from '../../crud/query.js';
import type { DB } from '../../db/index.js';

const EXPORT_BATCH = 1000;

export interface ExportRead extends ListQueryOptions {
  fields: NonNullable<ListQueryOptions['fields']>;
  /** PGlite (one shared connection) or PostgreSQL. */
  singleConnection: boolean;
  batch?: number;
}

export async function forEachExportBatch(db: DB, doc: ScreenDocument, read: ExportRead, onBatch: (rows: Array<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const batch = read.batch ?? EXPORT_BATCH;
  if (!read.singleConnection) {
    const compiled = buildListQuery(db, doc, read).compile();
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set transaction read only', []));
      await trx.executeQuery(CompiledQuery.raw(`declare canteen_export no scroll cursor for ${compiled.sql}`, [...compiled.parameters]));
      for (;;) {
        const r = await trx.executeQuery(CompiledQuery.raw(`fetch ${batch} from canteen_export`, []));
        if (r.rows.length) await onBatch(r.rows as Array<Record<string, unknown>>);
        if (r.rows.length < batch) break;
      }
      await trx.executeQuery(CompiledQuery.raw('close canteen_export', []));
    });
    return;
  }
  const ids = (await buildListQuery(db, doc, { ...read, fields: [{ field: 'id', column: 'id' }] }).execute()).map((r) => String(r.id));
  const select = [...read.fields.map((f) => sql.ref(f.column).as(f.field)), sql.ref('id').as('__id')];
  for (let i = 0; i < ids.length; i += batch) {
    const slice = ids.slice(i, i + batch);
    let q = db.selectFrom(doc.resource.table).select(select).where(sql<boolean>`${sql.ref('id')} = any(${slice}::bigint[])`);
    if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', read.tenantId);
    const byId = new Map((await q.execute()).map((r) => [String(r.__id), r as Record<string, unknown>]));
    const rows: Array<Record<string, unknown>> = [];
    for (const id of slice) {
      const row = byId.get(id);
      if (!row) continue;
      delete row.__id;
      rows.push(row);
    }
    if (rows.length) await onBatch(rows);
  }
}
