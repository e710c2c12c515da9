/**
 * Schema evolution at start (src/server/db/evolve.ts via syncDocumentTables): a document that widens a column
 * (longer maxLength, more digits, integer → bigint) is applied on the next start and the longer value is then
 * stored through the API; one that narrows or retypes a column stops the start with `file: /pointer: message`
 * and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { SchemaEvolutionError } from '../../src/server/db/document-tables.js';
import { compareColumn } from '../../src/server/db/evolve.js';
import type { DocumentRegistry } from '../../src/server/documents.js';
import { prepareDatabase } from '../../src/server/setup.js';
import type { ScreenDocument } from '../../src/shared/document.js';
import { FIXTURE_SCHEMAS, startTestServer, type TestServer } from './helpers.js';

/** The registry of a restart whose testNote document was edited by `edit`. */
function withEditedNote(docs: DocumentRegistry, edit: (d: ScreenDocument) => void): DocumentRegistry {
  const note = JSON.parse(JSON.stringify(docs.get('testNote'))) as ScreenDocument;
  edit(note);
  const all = docs.all.map((d) => (d.id === 'testNote' ? note : d));
  const byId = new Map(all.map((d) => [d.id, d]));
  return { ...docs, all, byId, get: (id) => byId.get(id) };
}

async function columnType(t: TestServer, column: string) {
  const r = await sql<{ data_type: string; character_maximum_length: number | null }>`select data_type, character_maximum_length from information_schema.columns
    where table_schema = current_schema() and table_name = 'test_note' and column_name = ${column}`.execute(t.database.db);
  return r.rows[0];
}

describe('document tables evolve at start', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  });
  afterAll(async () => t?.close());

  it('raising a maxLength and restarting stores the longer value', async () => {
    const token = await t.login();
    const long = 'x'.repeat(45);
    const before = await t.call(token, { method: 'POST', url: '/api/test-note/submit', payload: { noteTitle: long } });
    expect(before.status).toBe(400);
    expect((await columnType(t, 'note_title')).character_maximum_length).toBe(30);

    const docs = withEditedNote(t.app.ctx.docs, (d) => {
      d.schema.properties.noteTitle.maxLength = 60;
    });
    const prep = await prepareDatabase(t.database.db, docs, t.config);
    expect(prep.tableChanges).toContain('widen column test_note.note_title to varchar(60)');
    expect((await columnType(t, 'note_title')).character_maximum_length).toBe(60);

    const app = buildApp({ db: t.database.db, config: t.config, docs });
    await app.ready();
    try {
      const res = await app.inject({ method: 'POST', url: '/api/test-note/submit', headers: { 'blade-auth': `bearer ${token}` }, payload: { noteTitle: long } });
      expect(res.statusCode).toBe(200);
      const id = JSON.parse(res.body).data.id;
      const row = await t.database.db.selectFrom('test_note').select('note_title').where('id', '=', id).executeTakeFirst();
      expect(row?.note_title).toBe(long);
    } finally {
      await app.close();
    }
    // a second start with the same document changes nothing
    expect((await prepareDatabase(t.database.db, docs, t.config)).tableChanges).toEqual([]);
  });

  it('narrowing a column or changing its type stops the start with file: /pointer: message, and applies nothing', async () => {
    const docs = withEditedNote(t.app.ctx.docs, (d) => {
      d.schema.properties.noteTitle.maxLength = 60; // as the table has it since the test above
      d.schema.properties.content.maxLength = 10; // was 500
      d.schema.properties.priority = { ...d.schema.properties.priority, type: 'string', maxLength: 5 }; // was integer
      d.schema.properties.extra = { type: 'string', maxLength: 20, title: 'testNote.field.content' }; // a new column, not added either
    });
    const err = await prepareDatabase(t.database.db, docs, t.config).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SchemaEvolutionError);
    const lines = (err as Error).message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/note\.json: \/schema\/properties\/content: the column is varchar\(500\) and the document asks for varchar\(10\): .*write a module migration/);
    expect(lines[1]).toMatch(/note\.json: \/schema\/properties\/priority: the column is integer and the document asks for varchar\(5\): the type changes/);
    expect((await columnType(t, 'content')).character_maximum_length).toBe(500);
    expect((await columnType(t, 'priority')).data_type).toBe('integer');
    expect(await columnType(t, 'extra')).toBeUndefined();
  });
});

describe('compareColumn', () => {
  const col = (data_type: string, len: number | null = null, p: number | null = null, s: number | null = null) => ({
    column_name: 'c', data_type, character_maximum_length: len, numeric_precision: p, numeric_scale: s,
  });
  it('widens what keeps every stored value', () => {
    expect(compareColumn('varchar(20)', col('character varying', 10))).toEqual({ action: 'widen', to: 'varchar(20)' });
    expect(compareColumn('text', col('character varying', 10))).toEqual({ action: 'widen', to: 'text' });
    expect(compareColumn('numeric(14,2)', col('numeric', null, 12, 2))).toEqual({ action: 'widen', to: 'numeric(14,2)' });
    expect(compareColumn('numeric(13,3)', col('numeric', null, 12, 2))).toEqual({ action: 'widen', to: 'numeric(13,3)' });
    expect(compareColumn('bigint', col('integer'))).toEqual({ action: 'widen', to: 'bigint' });
    expect(compareColumn('varchar(10)', col('character varying', 10))).toEqual({ action: 'keep' });
    expect(compareColumn('timestamp(0)', col('timestamp without time zone'))).toEqual({ action: 'keep' });
    expect(compareColumn('jsonb', col('jsonb'))).toEqual({ action: 'keep' });
  });
  it('refuses what could cut, round or reject stored values', () => {
    expect(compareColumn('varchar(5)', col('character varying', 10)).action).toBe('refuse');
    expect(compareColumn('varchar(5)', col('text')).action).toBe('refuse');
    expect(compareColumn('numeric(12,1)', col('numeric', null, 12, 2)).action).toBe('refuse');
    expect(compareColumn('numeric(12,4)', col('numeric', null, 12, 2)).action).toBe('refuse'); // fewer integer digits
    expect(compareColumn('integer', col('bigint')).action).toBe('refuse');
    expect(compareColumn('date', col('timestamp without time zone')).action).toBe('refuse');
    expect(compareColumn('jsonb', col('character varying', 100)).action).toBe('refuse');
  });
});
