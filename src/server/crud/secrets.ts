/**
 * x-secret values stored before they were sealed (plain text in a document's column) are sealed at start, so a
 * database upgraded from a release without encryption keeps no readable secret. Each row is updated only while it
 * still holds the plain value: instances starting together on one PostgreSQL cannot seal a value twice.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { storedFields, toSnake } from '../../shared/fields.js';

export async function sealStoredSecrets(app: FastifyInstance): Promise<number> {
  const { database, docs, secrets } = app.ctx;
  if (!database) return 0;
  let sealed = 0;
  for (const doc of docs.all) {
    for (const [field, f] of storedFields(doc)) {
      if (!f['x-secret']) continue;
      const column = toSnake(field);
      const plain = await database
        .selectFrom(doc.resource.table)
        .select(['id', sql<string>`${sql.ref(column)}`.as('value')])
        .where(sql.ref(column), 'is not', null)
        .where(sql.ref(column), 'not like', 'enc:v1:%')
        .execute();
      for (const row of plain) {
        const r = await database
          .updateTable(doc.resource.table)
          .set({ [column]: secrets.seal(row.value) })
          .where('id', '=', row.id)
          .where(sql.ref(column), '=', row.value)
          .executeTakeFirst();
        sealed += Number(r.numUpdatedRows);
      }
    }
  }
  return sealed;
}
