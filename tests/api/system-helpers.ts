/**
 * Helpers of the system-management API tests: a non-administrator operator holding chosen menu/button
 * codes, and an R-envelope reader.
 */
import { expect } from 'vitest';
import { hashPassword } from '../../src/server/lib/password.js';
import { newId } from '../../src/server/lib/ids.js';
import { md5, type TestServer } from './helpers.js';

/** A role (alias `ops_<account>`, not administrator) granted `codes`, and a user `account`/`password` of `tenantId` holding it. */
export async function operator(t: TestServer, account: string, codes: string[], tenantId = '000000'): Promise<{ userId: string; roleId: string; token: string }> {
  const db = t.database.db;
  const roleId = newId();
  await db.insertInto('blade_role').values({ id: roleId, tenant_id: tenantId, parent_id: 0, role_name: `ops ${account}`, sort: 9, role_alias: `ops_${account}`, is_deleted: 0 }).execute();
  const menus = await db.selectFrom('blade_menu').select('id').where('code', 'in', codes).where('is_deleted', '=', 0).execute();
  if (menus.length) await db.insertInto('blade_role_menu').values(menus.map((m) => ({ id: newId(), role_id: roleId, menu_id: String(m.id) }))).execute();
  const userId = newId();
  await db.insertInto('blade_user').values({
    id: userId, tenant_id: tenantId, account, password: await hashPassword(md5(`${account}-pw`)), real_name: account, role_id: roleId, dept_id: '1123598813738675202', is_deleted: 0, status: 1,
  }).execute();
  const reply = await t.loginReply(account, `${account}-pw`, tenantId);
  if (!reply.access_token) throw new Error(`login of ${account} failed: ${JSON.stringify(reply)}`);
  return { userId, roleId, token: reply.access_token as string };
}

/** The data of a successful R reply (fails the test with the reply otherwise). */
export function data<T = any>(res: { status: number; body: any }): T {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data as T;
}
