/** Document registry, schemaVersion migrations, additive table changes, and buildApp without a database. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { syncDocumentTables } from '../../src/server/db/document-tables.js';
import { DocumentError, loadDocumentFile, loadDocuments, migrateDocument } from '../../src/server/documents.js';
import { formatProblem, lintPaths } from '../../scripts/lint/index.js';
import { CURRENT_SCHEMA_VERSION } from '../../src/shared/document.js';
import { FIXTURE_SCHEMAS, ROOT, startTestServer, type TestServer } from './helpers.js';

describe('migrateDocument', () => {
  it('upgrades a version-0 document (resource.prefix → permissionPrefix) without touching the input', () => {
    const old = { id: 'x', title: 'x.title', route: '/x', resource: { api: '/api/x', table: 'x', prefix: 'x' }, schema: { type: 'object', properties: {} }, list: { columns: [] } };
    const copy = JSON.parse(JSON.stringify(old));
    const doc = migrateDocument(old);
    expect(doc.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    expect(doc.resource.permissionPrefix).toBe('x');
    expect((doc.resource as any).prefix).toBeUndefined();
    expect(old).toEqual(copy);
  });
  it('keeps current documents as they are and refuses future versions', () => {
    const cur = { schemaVersion: CURRENT_SCHEMA_VERSION, id: 'y' };
    expect(migrateDocument(cur)).toBe(cur);
    expect(() => migrateDocument({ schemaVersion: CURRENT_SCHEMA_VERSION + 1 })).toThrow(DocumentError);
  });
});

describe('loadDocuments', () => {
  it('loads schemas/ (not schemas/meta) and SCHEMA_DIRS', () => {
    const reg = loadDocuments(ROOT, [FIXTURE_SCHEMAS]);
    expect(reg.get('merchant')?.resource.api).toBe('/api/merchant');
    expect(reg.get('testNote')).toBeTruthy();
    expect([...reg.files.values()].some((f) => f.includes(`${path.sep}meta${path.sep}`))).toBe(false);
  });
  it('names the file and the problem', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ id: 'bad', schemaVersion: 1, title: 't', route: '/b', resource: { api: '/api/b', table: 'Bad Table;', permissionPrefix: 'b' }, schema: { type: 'object', properties: {} }, list: { columns: [] } }));
    expect(() => loadDocumentFile(bad)).toThrow(/bad\.json: .*resource\/table/);
    fs.writeFileSync(bad, '{ not json');
    expect(() => loadDocumentFile(bad)).toThrow(/bad\.json: not valid JSON/);
    fs.rmSync(dir, { recursive: true });
  });

  // A document the server's own minimum check accepts but the meta-schema refuses: a misspelt key, a wrong
  // value type and an unknown widget. The loader must refuse it at start, like the lint, with file and pointer.
  const fixture = () => JSON.parse(fs.readFileSync(path.join(FIXTURE_SCHEMAS, 'test', 'note.json'), 'utf8'));
  const broken = () => {
    const doc = fixture();
    doc.tilte = doc.title;
    doc.list.columns[0].width = 'wide';
    doc.uiSchema.content['ui:widget'] = 'textarae';
    return doc;
  };

  it('validates every document against the meta-schema: a bad one fails the start naming file and JSON pointer', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    try {
      const file = path.join(dir, 'note.json');
      fs.writeFileSync(file, JSON.stringify(broken()));
      let message = '';
      try {
        loadDocuments(ROOT, [dir]);
      } catch (e) {
        expect(e).toBeInstanceOf(DocumentError);
        message = (e as Error).message;
      }
      expect(message).toContain(`${file}: /tilte: unknown key "tilte" (did you mean "title"?)`);
      expect(message).toContain(`${file}: /list/columns/0/width: must be integer`);
      expect(message).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: /uiSchema/content/ui:widget: must be one of: .*\\(did you mean "textarea"\\?\\)`));
      // the fixture itself is fine
      fs.writeFileSync(file, JSON.stringify(fixture()));
      expect(loadDocumentFile(file).id).toBe('testNote');
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it('says what the schema lint says (one implementation of the meta-schema check)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    try {
      const file = path.join(dir, 'note.json');
      fs.writeFileSync(file, JSON.stringify(broken()));
      const lint = lintPaths([file], { currentSchemaVersion: CURRENT_SCHEMA_VERSION }, { root: ROOT, cwd: process.cwd() }).problems.map((p) => formatProblem(p));
      expect(lint.length).toBe(3);
      let message = '';
      try {
        loadDocumentFile(file);
      } catch (e) {
        message = (e as Error).message;
      }
      const lines = message.split('\n').slice(1);
      expect(lines.sort()).toEqual(lint.map((l) => l.replace(path.relative(process.cwd(), file), file)).sort());
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it('checks migrated documents too, and says from which version', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    try {
      const file = path.join(dir, 'old.json');
      const doc = fixture();
      delete doc.schemaVersion;
      doc.resource.prefix = doc.resource.permissionPrefix;
      delete doc.resource.permissionPrefix;
      doc.list.pageSize = 10;
      fs.writeFileSync(file, JSON.stringify(doc));
      expect(() => loadDocumentFile(file)).toThrow(/old\.json: \/list\/pageSize: unknown key "pageSize" \(did you mean "pageSizes"\?\) \(in the document as migrated from schemaVersion 0 to 1\)/);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('buildApp without a database (route listing for the lint)', () => {
  it('registers every document and module route', async () => {
    const app = buildApp({ config: loadConfig({}, { rootDir: ROOT, logger: false, schemaDirs: [FIXTURE_SCHEMAS] }) });
    await app.ready();
    for (const url of ['/api/merchant/list', '/api/merchant/detail', '/api/test-note/list']) expect(app.hasRoute({ method: 'GET', url }), url).toBe(true);
    for (const url of ['/api/merchant/submit', '/api/merchant/remove', '/api/blade-auth/oauth/token', '/api/blade-resource/oss/endpoint/put-file-attach']) expect(app.hasRoute({ method: 'POST', url }), url).toBe(true);
    for (const url of ['/api/merchant/reset/loginPsw', '/api/merchant/setnull/payPsw', '/api/merchant/unbind', '/api/blade-system/dict/batch', '/api/blade-system/menu/routes']) expect(app.hasRoute({ method: 'GET', url }), url).toBe(true);
    await app.close();
  });
});

describe('web app serving', () => {
  it('serves dist/web with an SPA fallback for non-/api GETs, never for /api', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log(1)');
    const app = buildApp({ config: loadConfig({}, { rootDir: ROOT, logger: false }), webRoot: web });
    await app.ready();
    const index = await app.inject({ method: 'GET', url: '/merchant/merchant' });
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('id="root"');
    expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('id="root"');
    const js = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(js.body).toBe('console.log(1)');
    // /api paths never fall back to the web app (without a token: 401 R before routing)
    const api = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(401);
    expect(JSON.parse(api.body).code).toBe(401);
    await app.close();
    fs.rmSync(web, { recursive: true });
  });
});

describe('document tables evolve additively', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  });
  afterAll(async () => t?.close());

  it('adds a new field as a column on the next start, keeps the data, creates the indexes', async () => {
    const doc = JSON.parse(JSON.stringify(t.app.ctx.docs.get('testNote')));
    await t.database.db.insertInto('test_note').values({ id: '1', note_title: 'kept', is_deleted: 0 }).execute();
    doc.schema.properties.dueDate = { type: 'string', format: 'date', title: 'testNote.field.content' };
    const changes = await syncDocumentTables(t.database.db, [doc]);
    expect(changes).toEqual(['add column test_note.due_date']);
    expect(await syncDocumentTables(t.database.db, [doc])).toEqual([]);
    const cols = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns where table_name = 'test_note'`.execute(t.database.db);
    expect(cols.rows.find((c) => c.column_name === 'due_date')?.data_type).toBe('date');
    expect((await t.database.db.selectFrom('test_note').select('note_title').where('id', '=', '1').executeTakeFirst())?.note_title).toBe('kept');
    const idx = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'canteen_merchant'`.execute(t.database.db);
    const names = idx.rows.map((r) => r.indexname);
    expect(names).toContain('canteen_merchant_merchant_name_idx');
    expect(names).toContain('canteen_merchant_tenant_id_create_time_idx');
  });
});
