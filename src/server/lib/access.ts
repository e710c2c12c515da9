/**
 * Access beyond permission codes, as data (BladeX blade_scope_data / blade_scope_api, granted to roles through
 * blade_role_scope): which rows a caller may touch (data scope) and which paths only some roles may call (API
 * scope). Administrators (role alias `administrator`) are never narrowed, as in BladeX.
 *
 * Data scope: a rule belongs to a menu; it narrows the screen whose menu code (`resource.permissionPrefix`) is that
 * menu's code (or the rule's `resource_code`). Several granted rules of one screen widen each other (OR); a granted
 * "all" lifts the narrowing. The five kinds: 1 all, 2 own (`create_user` = me), 3 own department (`create_dept` in my
 * departments), 4 own department and below (by the department tree's ancestors), 5 custom: column, operator and value
 * (placeholders `${userId}`, `${deptId}`, `${deptIds}`, `${roleIds}`, `${tenantId}`) — a structured rule, checked
 * against the screen's fields when it is saved and again when it is applied; never SQL text.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { listableProperties, toSnake } from '../../shared/fields.js';
import type { DB } from '../db/index.js';

const TTL_MS = 5000;

export const DATA_SCOPE = 1;
export const API_SCOPE = 2;

/** The operators of a custom data rule (scope_type 5). */
export const SCOPE_OPERATORS = ['eq', 'ne', 'in', 'notIn', 'ge', 'le', 'like'] as const;
export type ScopeOperator = (typeof SCOPE_OPERATORS)[number];
export const SCOPE_PLACEHOLDERS = ['${userId}', '${deptId}', '${deptIds}', '${roleIds}', '${tenantId}'] as const;

/** A granted rule with its values filled in for one caller; `column` is snake_case. */
export interface DataRule {
  column: string;
  op: ScopeOperator;
  values: string[];
}

/** Per screen menu code: the rules that narrow it (absent = not narrowed). */
export type DataScopes = Map<string, DataRule[]>;

export interface ScopeCaller {
  userId: string;
  tenantId: string;
  roleIds: string[];
  roleNames: string[];
  deptIds: string[];
}

interface ScopeRow {
  id: string;
  code: string;
  type: number;
  column: string | null;
  operator: string | null;
  value: string | null;
}

interface ApiRow {
  id: string;
  path: string;
}

export function isAdministratorCaller(user: Pick<ScopeCaller, 'roleNames'>): boolean {
  return user.roleNames.includes('administrator');
}

/** True when `path` is one an API scope path names: exact, `<prefix>/**`, or `*` for one segment. */
export function apiPathMatches(pattern: string, path: string): boolean {
  const p = pattern.trim().replace(/\/+$/, '');
  if (!p) return false;
  if (p.endsWith('/**')) {
    const base = p.slice(0, -3);
    return path === base || path.startsWith(`${base}/`);
  }
  if (!p.includes('*')) return path === p;
  const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  return re.test(path);
}

export class AccessService {
  private rules = new Map<string, { at: number; rows: Promise<ScopeRow[]> }>();
  private apiRows?: { at: number; rows: Promise<ApiRow[]> };
  private apiGrants = new Map<string, { at: number; ids: Promise<Set<string>> }>();
  private deptBelow = new Map<string, { at: number; ids: Promise<string[]> }>();

  constructor(
    private getDb: () => DB,
    /** The department tree's table and ancestors column (from its document), for "own department and below". */
    private deptTree: () => { table: string; ancestors: string } | undefined,
  ) {}

  clear(): void {
    this.rules.clear();
    this.apiRows = undefined;
    this.apiGrants.clear();
    this.deptBelow.clear();
  }

  /** The data scopes of a caller, values filled in (an administrator: none). */
  async dataScopes(user: ScopeCaller): Promise<DataScopes> {
    const out: DataScopes = new Map();
    if (isAdministratorCaller(user)) return out;
    const rows = await this.grantedRules(user.roleIds);
    const byCode = new Map<string, ScopeRow[]>();
    for (const r of rows) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r]);
    for (const [code, list] of byCode) {
      if (list.some((r) => r.type === 1)) continue;
      const resolved: DataRule[] = [];
      for (const r of list) resolved.push(await this.resolve(r, user));
      out.set(code, resolved);
    }
    return out;
  }

  private async resolve(r: ScopeRow, user: ScopeCaller): Promise<DataRule> {
    switch (r.type) {
      case 2:
        return { column: toSnake(r.column || 'create_user'), op: 'in', values: [user.userId] };
      case 3:
        return { column: toSnake(r.column || 'create_dept'), op: 'in', values: user.deptIds };
      case 4:
        return { column: toSnake(r.column || 'create_dept'), op: 'in', values: await this.deptsAndBelow(user) };
      case 5: {
        const op = (SCOPE_OPERATORS as readonly string[]).includes(r.operator ?? '') ? (r.operator as ScopeOperator) : 'eq';
        return { column: toSnake(r.column ?? ''), op, values: fillPlaceholders(r.value ?? '', user, op) };
      }
      default:
        // an unknown kind narrows to nothing rather than to everything
        return { column: '', op: 'in', values: [] };
    }
  }

  private grantedRules(roleIds: string[]): Promise<ScopeRow[]> {
    const ids = roleIds.filter((r) => /^\d+$/.test(r)).sort();
    if (!ids.length) return Promise.resolve([]);
    const key = ids.join(',');
    const hit = this.rules.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.rows;
    const rows = this.getDb()
      .selectFrom('blade_scope_data as s')
      .innerJoin('blade_role_scope as rs', (j) => j.onRef('rs.scope_id', '=', 's.id').on('rs.scope_category', '=', DATA_SCOPE))
      .leftJoin('blade_menu as m', 'm.id', 's.menu_id')
      .select(['s.id', 's.scope_type', 's.scope_column', 's.scope_operator', 's.scope_value', 's.resource_code', 'm.code'])
      .distinct()
      .where('rs.role_id', 'in', ids)
      .where('s.is_deleted', '=', 0)
      .execute()
      .then((list) =>
        list.map((r) => ({
          id: String(r.id),
          code: String(r.resource_code || r.code || ''),
          type: Number(r.scope_type),
          column: r.scope_column as string | null,
          operator: r.scope_operator as string | null,
          value: r.scope_value as string | null,
        })),
      );
    rows.catch(() => this.rules.delete(key));
    this.rules.set(key, { at: Date.now(), rows });
    return rows;
  }

  private deptsAndBelow(user: ScopeCaller): Promise<string[]> {
    const own = user.deptIds.filter((d) => /^\d+$/.test(d));
    const tree = this.deptTree();
    if (!own.length || !tree) return Promise.resolve(own);
    const key = `${user.tenantId}|${[...own].sort().join(',')}`;
    const hit = this.deptBelow.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.ids;
    const col = sql.ref(tree.ancestors);
    const ids = this.getDb()
      .selectFrom(tree.table)
      .select('id')
      .where('tenant_id', '=', user.tenantId)
      .where('is_deleted', '=', 0)
      .where((eb) => eb.or([eb('id', 'in', own), ...own.map((d) => eb(sql<string>`',' || ${col} || ','`, 'like', `%,${d},%`))]))
      .execute()
      .then((rows) => [...new Set([...own, ...rows.map((r) => String(r.id))])]);
    ids.catch(() => this.deptBelow.delete(key));
    this.deptBelow.set(key, { at: Date.now(), ids });
    return ids;
  }

  /**
   * API scope: may this caller call `path`? Yes when no API scope row names the path, or when one of the caller's
   * roles is granted one of the rows that do. Administrators always may.
   */
  async apiAllowed(user: ScopeCaller, path: string): Promise<boolean> {
    if (isAdministratorCaller(user)) return true;
    const rows = await this.allApiRows();
    const matching = rows.filter((r) => apiPathMatches(r.path, path));
    if (!matching.length) return true;
    const granted = await this.grantedApi(user.roleIds);
    return matching.some((r) => granted.has(r.id));
  }

  private allApiRows(): Promise<ApiRow[]> {
    if (this.apiRows && Date.now() - this.apiRows.at < TTL_MS) return this.apiRows.rows;
    const rows = this.getDb()
      .selectFrom('blade_scope_api')
      .select(['id', 'scope_path'])
      .where('is_deleted', '=', 0)
      .execute()
      .then((list) => list.map((r) => ({ id: String(r.id), path: String(r.scope_path ?? '') })));
    rows.catch(() => (this.apiRows = undefined));
    this.apiRows = { at: Date.now(), rows };
    return rows;
  }

  private grantedApi(roleIds: string[]): Promise<Set<string>> {
    const ids = roleIds.filter((r) => /^\d+$/.test(r)).sort();
    if (!ids.length) return Promise.resolve(new Set());
    const key = ids.join(',');
    const hit = this.apiGrants.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.ids;
    const granted = this.getDb()
      .selectFrom('blade_role_scope')
      .select('scope_id')
      .where('scope_category', '=', API_SCOPE)
      .where('role_id', 'in', ids)
      .execute()
      .then((rows) => new Set(rows.map((r) => String(r.scope_id))));
    granted.catch(() => this.apiGrants.delete(key));
    this.apiGrants.set(key, { at: Date.now(), ids: granted });
    return granted;
  }
}

function fillPlaceholders(value: string, user: ScopeCaller, op: ScopeOperator): string[] {
  const lists: Record<string, string[]> = {
    '${userId}': [user.userId],
    '${deptId}': user.deptIds.slice(0, 1),
    '${deptIds}': user.deptIds,
    '${roleIds}': user.roleIds,
    '${tenantId}': [user.tenantId],
  };
  const parts = op === 'in' || op === 'notIn' ? value.split(',') : [value];
  return parts.flatMap((p) => {
    const t = p.trim();
    return t in lists ? lists[t] : [t];
  });
}

/** The columns a data rule may name on a screen: its stored and audit fields, snake_case. */
export function scopeColumns(doc: ScreenDocument): Set<string> {
  return new Set(Object.entries(listableProperties(doc)).filter(([, f]) => !f['x-virtual']).map(([k]) => toSnake(k)));
}

/**
 * The condition a screen's data scope puts on its rows, for Kysely's `where` (undefined: not narrowed). A rule whose
 * column the screen does not have (the document changed since) matches nothing: narrowing fails closed.
 */
export function dataScopeCondition(doc: ScreenDocument, rules: DataRule[] | undefined): ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) | undefined {
  if (!rules) return undefined;
  const columns = scopeColumns(doc);
  return (eb) => {
    const parts = rules.map((r): Expression<SqlBool> => {
      if (!columns.has(r.column)) return sql<SqlBool>`false`;
      const col = sql.ref(r.column);
      const text = sql`${col}::text`;
      switch (r.op) {
        case 'in':
        case 'eq':
          return r.values.length ? eb(text, 'in', r.values) : sql<SqlBool>`false`;
        case 'notIn':
        case 'ne':
          return r.values.length ? eb.or([eb(col, 'is', null), eb(text, 'not in', r.values)]) : sql<SqlBool>`true`;
        case 'ge':
          return eb(col, '>=', r.values[0] ?? '');
        case 'le':
          return eb(col, '<=', r.values[0] ?? '');
        case 'like':
          return eb(text, 'like', `%${(r.values[0] ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
    });
    return eb.or(parts);
  };
}
