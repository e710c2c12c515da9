/**
 * Schema evolution of document tables: the column a document asks for beside the column the table has.
 * Widening changes keep every stored value and are applied at start (a longer varchar, varchar → text, a
 * numeric with more integer digits and/or more decimals, integer → bigint, a new nullable column); anything
 * else (a shorter varchar, fewer digits, another type) could truncate or reject stored data, so the start stops
 * with `file: /schema/properties/<field>: …` naming the migration to write. Never a 500 at run time because the
 * table and the document disagree.
 */

/** A column as information_schema describes it. */
export interface ExistingColumn {
  column_name: string;
  data_type: string;
  character_maximum_length: number | null;
  numeric_precision: number | null;
  numeric_scale: number | null;
}

/** What a document column type means, parsed from sqlType (`varchar(20)`, `numeric(12,2)`, `text`, …). */
interface ColumnShape {
  kind: 'varchar' | 'text' | 'numeric' | 'integer' | 'bigint' | 'smallint' | 'other';
  length?: number;
  precision?: number;
  scale?: number;
  /** Normalised name for comparison of other types (date, timestamp, jsonb, boolean). */
  name: string;
}

const INT_RANK: Record<string, number> = { smallint: 1, integer: 2, bigint: 3 };

export function parseSqlType(type: string): ColumnShape {
  const t = type.trim().toLowerCase();
  let m = /^(?:character varying|varchar)\s*\((\d+)\)$/.exec(t);
  if (m) return { kind: 'varchar', length: Number(m[1]), name: 'varchar' };
  if (t === 'text' || t === 'character varying') return { kind: 'text', name: 'text' };
  m = /^(?:numeric|decimal)\s*\((\d+)\s*(?:,\s*(\d+))?\)$/.exec(t);
  if (m) return { kind: 'numeric', precision: Number(m[1]), scale: Number(m[2] ?? 0), name: 'numeric' };
  if (t === 'int' || t === 'int4' || t === 'integer') return { kind: 'integer', name: 'integer' };
  if (t === 'int8' || t === 'bigint') return { kind: 'bigint', name: 'bigint' };
  if (t === 'int2' || t === 'smallint') return { kind: 'smallint', name: 'smallint' };
  if (t.startsWith('timestamp')) return { kind: 'other', name: 'timestamp' };
  return { kind: 'other', name: t.replace(/\s+/g, ' ') };
}

/** The shape of an existing column. */
export function existingShape(c: ExistingColumn): ColumnShape {
  switch (c.data_type) {
    case 'character varying':
      return c.character_maximum_length ? { kind: 'varchar', length: c.character_maximum_length, name: 'varchar' } : { kind: 'text', name: 'text' };
    case 'text':
      return { kind: 'text', name: 'text' };
    case 'numeric':
      return { kind: 'numeric', precision: c.numeric_precision ?? 1000, scale: c.numeric_scale ?? 0, name: 'numeric' };
    case 'integer':
    case 'bigint':
    case 'smallint':
      return { kind: c.data_type, name: c.data_type };
    case 'timestamp without time zone':
    case 'timestamp with time zone':
      return { kind: 'other', name: 'timestamp' };
    default:
      return { kind: 'other', name: c.data_type };
  }
}

export type ColumnChange = { action: 'keep' } | { action: 'widen'; to: string } | { action: 'refuse'; reason: string };

/** Compare what the document asks for (`wanted`, its SQL type) with the existing column. */
export function compareColumn(wanted: string, existing: ExistingColumn): ColumnChange {
  const want = parseSqlType(wanted);
  const have = existingShape(existing);
  const describe = (s: ColumnShape) =>
    s.kind === 'varchar' ? `varchar(${s.length})` : s.kind === 'numeric' ? `numeric(${s.precision},${s.scale})` : s.name;
  const refuse = (why: string): ColumnChange => ({ action: 'refuse', reason: `the column is ${describe(have)} and the document asks for ${describe(want)}: ${why}` });

  if (want.kind === 'varchar' && have.kind === 'varchar') {
    if (want.length === have.length) return { action: 'keep' };
    return want.length! > have.length! ? { action: 'widen', to: `varchar(${want.length})` } : refuse('a shorter length could cut stored values');
  }
  if (want.kind === 'text' && have.kind === 'text') return { action: 'keep' };
  if (want.kind === 'text' && have.kind === 'varchar') return { action: 'widen', to: 'text' };
  if (want.kind === 'varchar' && have.kind === 'text') return refuse('a length limit could cut stored values');
  if (want.kind === 'numeric' && have.kind === 'numeric') {
    const wantInt = want.precision! - want.scale!;
    const haveInt = have.precision! - have.scale!;
    if (want.precision === have.precision && want.scale === have.scale) return { action: 'keep' };
    if (wantInt >= haveInt && want.scale! >= have.scale!) return { action: 'widen', to: `numeric(${want.precision},${want.scale})` };
    return refuse('fewer digits could round or reject stored values');
  }
  if (want.kind in INT_RANK && have.kind in INT_RANK) {
    if (INT_RANK[want.kind] === INT_RANK[have.kind]) return { action: 'keep' };
    return INT_RANK[want.kind] > INT_RANK[have.kind] ? { action: 'widen', to: want.kind } : refuse('a smaller integer could reject stored values');
  }
  if (want.kind === 'numeric' && have.kind in INT_RANK) {
    // an integer column fits a numeric with enough integer digits (bigint: 19)
    const digits = { smallint: 5, integer: 10, bigint: 19 }[have.kind as 'smallint' | 'integer' | 'bigint'];
    if (want.precision! - want.scale! >= digits) return { action: 'widen', to: `numeric(${want.precision},${want.scale})` };
    return refuse('too few integer digits for the stored integers');
  }
  if (want.kind === 'other' && have.kind === 'other' && want.name === have.name) return { action: 'keep' };
  return refuse('the type changes');
}

/** The sentence of a refused change: what to do about it. */
export function refusalMessage(table: string, column: string, reason: string): string {
  return `${reason}; write a module migration that converts ${table}.${column} (src/server/db/migrate.ts, or the owning module's migrations) or keep the old type in the document ("x-sqlType")`;
}
