/** Pure helpers over a screen document's fields, shared by server, runtime and lint. */
import type { BuiltinAction, EntitySchema, FieldSchema, FieldUi, Mode, ModeBehaviour, ScreenDocument } from './document.js';

const snakeNames = new Map<string, string>();

/** camelCase → snake_case, the column naming rule (releaseTime → release_time). Remembered: field names are few and asked for on every request. */
export function toSnake(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
    if (snakeNames.size < 10_000) snakeNames.set(name, snake);
  }
  return snake;
}

/** snake_case → camelCase. */
export function toCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Every property the entity can have: the base ones and those added by conditional branches. */
export function allProperties(schema: EntitySchema): Record<string, FieldSchema> {
  const out: Record<string, FieldSchema> = { ...schema.properties };
  for (const branch of schema.allOf ?? []) {
    for (const part of [branch.then, branch.else]) {
      if (part?.properties) for (const [k, v] of Object.entries(part.properties)) out[k] ??= v;
    }
  }
  return out;
}

/** A field condition: the field is present only when `when` matches the record (const / enum tests). */
export interface FieldCondition {
  when: Record<string, { const?: unknown; enum?: unknown[] }>;
  /** true when the field belongs to the `else` branch (present when the test fails). */
  negate: boolean;
  required: boolean;
}

/** Fields that exist only under a condition, with the condition (from `allOf[].if/then/else`). */
export function conditionalFields(schema: EntitySchema): Record<string, FieldCondition> {
  const out: Record<string, FieldCondition> = {};
  for (const branch of schema.allOf ?? []) {
    const when = (branch.if.properties ?? {}) as FieldCondition['when'];
    for (const [part, negate] of [[branch.then, false], [branch.else, true]] as const) {
      if (!part) continue;
      const req = new Set(part.required ?? []);
      for (const k of Object.keys(part.properties ?? {})) {
        if (!(k in schema.properties)) out[k] = { when, negate, required: req.has(k) };
      }
    }
  }
  return out;
}

/** Loose equality used for dictionary keys ('1' == 1), as BladeX stores dictKey as text. */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return String(a) === String(b);
}

export function conditionHolds(cond: FieldCondition, record: Record<string, unknown>): boolean {
  const ok = Object.entries(cond.when).every(([f, test]) => {
    const v = record[f];
    if ('const' in test) return looseEqual(v, test.const);
    if (test.enum) return test.enum.some((e) => looseEqual(v, e));
    return true;
  });
  return cond.negate ? !ok : ok;
}

export function fieldUi(doc: ScreenDocument, field: string): FieldUi {
  const ui = doc.uiSchema?.[field];
  return ui && !Array.isArray(ui) ? ui : {};
}

/** How a field behaves in a dialog mode. readOnly fields are read-only when shown in add/edit. */
export function modeBehaviour(doc: ScreenDocument, field: string, mode: Mode): ModeBehaviour {
  const f = allProperties(doc.schema)[field];
  const declared = fieldUi(doc, field)['ui:modes']?.[mode];
  if (declared) return declared;
  if (mode === 'view') return f && isWriteOnly(f) ? 'hidden' : 'show';
  if (f?.readOnly) return 'readonly';
  return 'show';
}

/** Field order for dialogs: ui:order first, then the remaining properties in declaration order. */
export function fieldOrder(doc: ScreenDocument): string[] {
  const props = Object.keys(allProperties(doc.schema));
  const order = (doc.uiSchema?.['ui:order'] as string[] | undefined)?.filter((f) => f !== '*' && props.includes(f)) ?? [];
  return [...order, ...props.filter((p) => !order.includes(p))];
}

/** Fields stored as columns (not virtual). */
export function storedFields(doc: ScreenDocument): Array<[string, FieldSchema]> {
  return Object.entries(allProperties(doc.schema)).filter(([, f]) => !f['x-virtual']);
}

/** Never sent back to a client: write-only, hashed (x-password) or sealed (x-secret). */
export function isWriteOnly(f: FieldSchema): boolean {
  return !!(f.writeOnly || f['x-password'] || f['x-secret']);
}

/** The SQL type a field is stored as (PostgreSQL 15 dialect). */
export function sqlType(f: FieldSchema): string {
  if (f['x-sqlType']) return f['x-sqlType'];
  if (f['x-password']) return 'varchar(200)';
  if (f['x-secret']) return 'text'; // the sealed form is longer than what was typed
  switch (f.type) {
    case 'integer':
      return (f.maximum ?? 0) > 2147483647 ? 'bigint' : 'integer';
    case 'number': {
      const scale = f.multipleOf ? Math.max(0, Math.round(-Math.log10(f.multipleOf))) : 2;
      return `numeric(12,${scale})`;
    }
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'object':
      return 'jsonb';
    default:
      if (f.format === 'date') return 'date';
      if (f.format === 'date-time') return 'timestamp(0)';
      if (f.maxLength && f.maxLength <= 4000) return `varchar(${f.maxLength})`;
      return 'text';
  }
}

/** Permission codes derived from the resource prefix. */
export function builtinPermission(doc: ScreenDocument, action: BuiltinAction): string {
  return `${doc.resource.permissionPrefix}_${action}`;
}

/** Built-in actions the screen offers. */
export function builtins(doc: ScreenDocument): Set<string> {
  return new Set(doc.list.builtins ?? ['add', 'edit', 'view', 'delete', 'export']);
}

/** Columns every document-managed table has (when `resource.audit` is not false), as fields. */
export const AUDIT_FIELDS: Record<string, FieldSchema> = {
  id: { type: 'string', title: 'common.field.id', readOnly: true },
  tenantId: { type: 'string', title: 'common.field.tenantId', readOnly: true, maxLength: 12 },
  createUser: { type: 'string', title: 'common.field.createUser', readOnly: true },
  createDept: { type: 'string', title: 'common.field.createDept', readOnly: true },
  createTime: { type: 'string', title: 'common.field.createTime', format: 'date-time', readOnly: true },
  updateUser: { type: 'string', title: 'common.field.updateUser', readOnly: true },
  updateTime: { type: 'string', title: 'common.field.updateTime', format: 'date-time', readOnly: true },
};

/** Fields a list may show or search: the document's own plus the audit fields. */
const listableMemo = new WeakMap<ScreenDocument, { schema: ScreenDocument['schema']; audit: boolean; props: Readonly<Record<string, FieldSchema>> }>();

/**
 * Every readable field of a document (audit columns + own + conditional), by name. Memoised per document
 * (a list request asked for it a few times per row): documents are data, not mutated once loaded; a
 * replaced `schema` or a changed `resource.audit` is noticed. The answer is frozen — copy it to change it.
 */
export function listableProperties(doc: ScreenDocument): Readonly<Record<string, FieldSchema>> {
  const audit = doc.resource.audit !== false;
  const hit = listableMemo.get(doc);
  if (hit && hit.schema === doc.schema && hit.audit === audit) return hit.props;
  const own = allProperties(doc.schema);
  const props = Object.freeze(audit ? { ...AUDIT_FIELDS, ...own } : { id: AUDIT_FIELDS.id, ...own });
  listableMemo.set(doc, { schema: doc.schema, audit, props });
  return props;
}

/** Name of the read-only label field an x-lookup field is read with (`as`, default `<field>Name`), else undefined. */
export function lookupAs(field: string, f: FieldSchema): string | undefined {
  const l = f['x-lookup'];
  return l && typeof l === 'object' ? (l.as ?? `${field}Name`) : undefined;
}

/** A byte count as people read it: 512 B, 12.5 KB, 3.2 MB (one decimal, none for bytes). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v * 10) / 10} ${units[i]}`;
}
