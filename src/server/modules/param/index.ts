/**
 * Parameters (`/api/blade-system/param/`): the generic CRUD of the `param` document (name, key, value all
 * required, key unique), and `readParam`, the service other modules read a parameter with (the keys the
 * server reads are listed in the README).
 */
import { sql } from 'kysely';
import type { ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import type { Migration } from '../../db/migrate.js';

/** The value of a live parameter, or undefined. */
export async function readParam(db: DB, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('blade_param').select('param_value').where('param_key', '=', key).where('is_deleted', '=', 0).orderBy('id').executeTakeFirst();
  return row ? String(row.param_value ?? '') : undefined;
}

/** A parameter read as a switch: true only when its value is `true` (any case). */
export async function paramFlag(db: DB, key: string): Promise<boolean> {
  return (await readParam(db, key))?.trim().toLowerCase() === 'true';
}

/** The key is unique among live parameters, also under concurrent submits. */
const migrations: Migration[] = [
  {
    name: 'param_0001_unique_key',
    up: async (db) => {
      await sql`create unique index if not exists blade_param_key_uq on blade_param (param_key) where is_deleted = 0`.execute(db);
    },
  },
];

const paramModule: ServerModule = {
  name: 'param',
  migrations,
  async plugin(app) {
  },
};

export default paramModule;
