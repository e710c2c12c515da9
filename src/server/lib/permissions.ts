/**
 * Permission codes (menu and button codes) granted to a set of roles, cached per role set for a few seconds
 * (clear-cache empties it). A screen's menu code is resource.permissionPrefix; buttons are `<prefix>_<verb>`.
 */
import type { DB } from '../db/index.js';

const TTL_MS = 5000;

export class PermissionService {
  private cache = new Map<string, { at: number; codes: Promise<Set<string>> }>();

  constructor(private getDb: () => DB) {}

  codes(roleIds: string[]): Promise<Set<string>> {
    const ids = roleIds.filter((r) => /^\d+$/.test(r)).sort();
    if (!ids.length) return Promise.resolve(new Set());
    const key = ids.join(',');
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.codes;
    const codes = this.getDb()
      .selectFrom('blade_menu as m')
      .innerJoin('blade_role_menu as rm', 'rm.menu_id', 'm.id')
      .select('m.code')
      .distinct()
      .where('rm.role_id', 'in', ids)
      .where('m.is_deleted', '=', 0)
      .execute()
      .then((rows) => new Set(rows.map((r) => r.code as string)));
    codes.catch(() => this.cache.delete(key));
    this.cache.set(key, { at: Date.now(), codes });
    return codes;
  }

  clear(): void {
    this.cache.clear();
  }
}
