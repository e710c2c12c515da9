/**
 * Migrations: ordered, named, each applied once in its own transaction and recorded in `canteen_migration`.
 * System migrations live here; a module adds its own (hand-written tables) through `moduleMigrations` in
 * `modules/index.ts`. Document-derived tables are synced after that (documents.ts → syncDocumentTables).
 * A PostgreSQL advisory lock keeps several instances from migrating at the same time.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from './index.js';

export interface Migration {
  /** Unique, ordered name, e.g. `0001_system` or `employee_0001_ledger`. */
  name: string;
  up(db: Transaction<any>): Promise<void>;
}

/** Audit columns every BladeX entity carries (TenantEntity). */
export const AUDIT_COLUMNS_SQL = `
  tenant_id varchar(12) not null default '000000',
  create_user bigint, create_dept bigint, create_time timestamp(0) default localtimestamp(0),
  update_user bigint, update_time timestamp(0) default localtimestamp(0),
  status integer not null default 1, is_deleted integer not null default 0`;

async function exec(db: Transaction<any>, statements: string): Promise<void> {
  for (const s of statements.split(/;\s*\n/).map((x) => x.trim()).filter(Boolean)) await sql.raw(s).execute(db);
}

export const SYSTEM_MIGRATIONS: Migration[] = [
  {
    name: '0001_system_tables',
    up: (db) =>
      exec(db, `
create table blade_tenant (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  tenant_name varchar(50) not null, domain varchar(255), background_url varchar(1000), linkman varchar(20),
  contact_number varchar(20), address varchar(255), account_number integer default -1, expire_time timestamp(0),
  package_id bigint, datasource_id bigint, license_key varchar(1000));
create unique index blade_tenant_tenant_id_uq on blade_tenant (tenant_id) where is_deleted = 0;
create table blade_user (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  code varchar(12), user_type integer default 1, account varchar(45) not null, password varchar(200),
  name varchar(20), real_name varchar(10), avatar varchar(2000), email varchar(45), phone varchar(45),
  birthday timestamp(0), sex smallint, role_id varchar(1000), dept_id varchar(1000), post_id varchar(1000));
create unique index blade_user_account_uq on blade_user (tenant_id, account) where is_deleted = 0;
create table blade_role (id bigint primary key, tenant_id varchar(12) not null default '000000', parent_id bigint not null default 0,
  role_name varchar(255), sort integer, role_alias varchar(255), is_deleted integer not null default 0);
create table blade_dept (id bigint primary key, tenant_id varchar(12) not null default '000000', parent_id bigint not null default 0,
  ancestors varchar(2000), dept_category integer, dept_name varchar(45), full_name varchar(45), sort integer,
  remark varchar(255), is_deleted integer not null default 0);
create table blade_post (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  category integer, post_code varchar(12), post_name varchar(64), sort integer, remark varchar(255));
create table blade_menu (id bigint primary key, parent_id bigint not null default 0, code varchar(255), name varchar(255),
  name_en varchar(255), alias varchar(255), path varchar(255), source varchar(255), sort integer, category integer,
  action integer not null default 0, is_open integer not null default 1, remark varchar(255), is_deleted integer not null default 0);
create index blade_menu_code_idx on blade_menu (code) where is_deleted = 0;
create index blade_menu_parent_idx on blade_menu (parent_id);
create table blade_role_menu (id bigint primary key, menu_id bigint not null, role_id bigint not null);
create unique index blade_role_menu_uq on blade_role_menu (role_id, menu_id);
create table blade_top_menu (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  code varchar(255), name varchar(255), name_en varchar(255), source varchar(255), path varchar(255), sort integer);
create table blade_top_menu_setting (id bigint primary key, top_menu_id bigint not null, menu_id bigint not null);
create table blade_dict (id bigint primary key, parent_id bigint not null default 0, code varchar(255), dict_key varchar(255),
  dict_value varchar(255), dict_value_en varchar(255), sort integer, remark varchar(255), is_sealed integer not null default 0,
  is_deleted integer not null default 0);
create index blade_dict_code_idx on blade_dict (code) where is_deleted = 0;
create table blade_dict_biz (id bigint primary key, tenant_id varchar(12) not null default '000000', parent_id bigint not null default 0,
  code varchar(255), dict_key varchar(255), dict_value varchar(255), dict_value_en varchar(255), sort integer, remark varchar(255),
  is_sealed integer not null default 0, is_deleted integer not null default 0);
create index blade_dict_biz_code_idx on blade_dict_biz (tenant_id, code) where is_deleted = 0;
create table blade_client (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  client_id varchar(48) not null, client_secret varchar(256) not null, resource_ids varchar(256), scope varchar(256) not null,
  authorized_grant_types varchar(256) not null, web_server_redirect_uri varchar(256), authorities varchar(256),
  access_token_validity integer not null, refresh_token_validity integer not null, additional_information varchar(4096),
  autoapprove varchar(256));
create table blade_param (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  param_name varchar(255), param_key varchar(255), param_value varchar(2000), remark varchar(255));
create table blade_attach (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  link varchar(1000), domain varchar(500), name varchar(500), original_name varchar(500), extension varchar(12), attach_size bigint);
create table blade_login_failure (tenant_id varchar(12) not null, account varchar(45) not null, fail_count integer not null default 0,
  locked_until timestamp(0), last_fail_time timestamp(0), primary key (tenant_id, account));
create table blade_token_revoked (jti varchar(64) primary key, expires_at timestamp(0) not null, revoke_time timestamp(0) not null default localtimestamp(0));
create index blade_token_revoked_time_idx on blade_token_revoked (revoke_time);
create table blade_secret (name varchar(64) primary key, value text not null, create_time timestamp(0) not null default localtimestamp(0));
create table blade_captcha (captcha_key varchar(64) primary key, code varchar(16) not null, expires_at timestamp(0) not null);
create table blade_serial (prefix varchar(32) not null, day varchar(8) not null, value bigint not null, primary key (prefix, day))
`),
  },
  {
    // Access control: data and API scopes attached to menus, granted to roles (BladeX blade_role_scope), and the
    // login sessions of each user (so a password change or a re-grant ends that user's other sessions).
    name: '0002_access_tables',
    up: (db) =>
      exec(db, `
create table blade_scope_data (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  menu_id bigint not null, resource_code varchar(255), scope_name varchar(255) not null, scope_field varchar(255),
  scope_class varchar(500), scope_column varchar(255), scope_type integer not null, scope_operator varchar(12),
  scope_value varchar(2000), remark varchar(255));
create index blade_scope_data_menu_idx on blade_scope_data (menu_id) where is_deleted = 0;
create table blade_scope_api (id bigint primary key, ${AUDIT_COLUMNS_SQL},
  menu_id bigint not null, resource_code varchar(255), scope_name varchar(255) not null, scope_path varchar(255) not null,
  scope_type integer, remark varchar(255));
create index blade_scope_api_menu_idx on blade_scope_api (menu_id) where is_deleted = 0;
create table blade_role_scope (id bigint primary key, scope_category integer not null, scope_id bigint not null, role_id bigint not null);
create unique index blade_role_scope_uq on blade_role_scope (role_id, scope_category, scope_id);
create table blade_user_session (sid varchar(64) primary key, user_id bigint not null, tenant_id varchar(12) not null,
  expires_at timestamp(0) not null, create_time timestamp(0) not null default localtimestamp(0));
create index blade_user_session_user_idx on blade_user_session (user_id)
`),
  },
];

const LOCK_KEY = 48151623;

/**
 * Run `fn` on one connection holding the migration advisory lock, so several instances starting together
 * migrate and seed one after the other. Use only `conn` inside (the embedded pool has a single connection).
 */
export async function withMigrationLock<T>(db: DB, fn: (conn: DB) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** Apply pending migrations in order (caller holds the lock). Returns the names applied. */
export async function applyMigrations(conn: DB, migrations: Migration[]): Promise<string[]> {
  const names = new Set<string>();
  for (const m of migrations) {
    if (names.has(m.name)) throw new Error(`duplicate migration name ${m.name}`);
    names.add(m.name);
  }
  await sql`create table if not exists canteen_migration (name varchar(200) primary key, applied_at timestamp(0) not null default localtimestamp(0))`.execute(conn);
  const done = new Set((await conn.selectFrom('canteen_migration').select('name').execute()).map((r: any) => r.name as string));
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.name)) continue;
    await conn.transaction().execute(async (trx) => {
      await m.up(trx);
      await trx.insertInto('canteen_migration').values({ name: m.name }).execute();
    });
    applied.push(m.name);
  }
  return applied;
}
