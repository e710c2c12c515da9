/**
 * Module boundaries (issue 9, code review items 2–3): a module's SQL names only its own tables — it asks the
 * owning module's service for the rest — and the columns of document-managed tables a module names come from
 * document fields that the document still has (a renamed field stops the start with a line naming it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { loadDocuments, type DocumentRegistry } from '../../../src/server/documents.js';
import { documentColumnProblems } from '../../../src/server/lib/document-columns.js';
import { BANNER_COLUMNS } from '../../../src/server/modules/banner/service.js';
import { MERCHANT_COLUMNS } from '../../../src/server/modules/merchant/service.js';
import { MSG_CENTER_COLUMNS } from '../../../src/server/modules/msgcenter/service.js';
import { WX_USER_COLUMNS } from '../../../src/server/modules/wxuser/service.js';

const root = path.resolve(__dirname, '../../..');
const MODULES_DIR = path.join(root, 'src/server/modules');
const docs = loadDocuments(root, []);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Code without comments (a comment may mention another module's table; only SQL counts). */
const code = (file: string) => fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');

/** table → owning module: document-managed tables belong to the module named like the screen, the others to the module whose migration creates them. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const doc of docs.all) if (doc.resource?.table && doc.resource.managed !== 'module') owners.set(doc.resource.table, doc.id.toLowerCase());
  for (const mod of fs.readdirSync(MODULES_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const file of sources(path.join(MODULES_DIR, mod.name))) {
      for (const m of code(file).matchAll(/create (?:table|view|sequence) (\w+)/g)) owners.set(m[1], mod.name);
    }
  }
  return owners;
}

describe('module boundaries', () => {
  it('every module names only its own tables in SQL', () => {
    const owners = tableOwners();
    // the ledger's money tables, the documents' tables and the shell's log are all known owners
    expect(owners.get('canteen_employee')).toBe('ledger');
    expect(owners.get('canteen_order')).toBe('ledger');
    expect(owners.get('canteen_merchant')).toBe('merchant');
    expect(owners.get('canteen_msg_center')).toBe('msgcenter');
    const reaches: string[] = [];
    for (const mod of fs.readdirSync(MODULES_DIR, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      for (const file of sources(path.join(MODULES_DIR, mod.name))) {
        for (const m of code(file).matchAll(/\b[a-z]+_[a-z_]+\b/g)) {
          const owner = owners.get(m[0]);
          if (owner && owner !== mod.name) reaches.push(`${path.relative(root, file)} names ${m[0]} (module ${owner})`);
        }
      }
    }
    expect([...new Set(reaches)]).toEqual([]);
  });

  it('the tenant module provisions and prunes through the dept, role, user and menu services, naming only its own tables', () => {
    const named = new Set(sources(path.join(MODULES_DIR, 'tenant')).flatMap((file) => [...code(file).matchAll(/\bblade_[a-z_]+\b/g)].map((m) => m[0])));
    expect([...named].sort()).toEqual(['blade_tenant', 'blade_tenant_package']);
  });

  it('the columns modules name in SQL are fields of the documents that own the tables', () => {
    for (const use of [MERCHANT_COLUMNS, BANNER_COLUMNS, MSG_CENTER_COLUMNS, WX_USER_COLUMNS]) expect(documentColumnProblems(docs, use), use.docId).toEqual([]);
  });

  it('a renamed field stops the start with a line naming the file and the field', async () => {
    const merchant = docs.get('merchant')!;
    const { feeRatio, ...rest } = merchant.schema.properties;
    const renamed = { ...merchant, schema: { ...merchant.schema, properties: { ...rest, commissionRatio: feeRatio } } };
    const byId = new Map(docs.byId);
    byId.set('merchant', renamed as typeof merchant);
    const edited: DocumentRegistry = { ...docs, all: docs.all.map((d) => (d.id === 'merchant' ? renamed : d)) as typeof docs.all, byId, get: (id) => byId.get(id) };
    expect(documentColumnProblems(edited, MERCHANT_COLUMNS)).toEqual(['field feeRatio named in SQL is not in the document']);
    const app = buildApp({ config: loadConfig({ ...process.env, DATABASE_URL: '' }, { rootDir: root, logger: false }), docs: edited });
    await expect(app.ready()).rejects.toThrow(/merchant\.json: module merchant: field feeRatio named in SQL is not in the document/);
    await app.close().catch(() => undefined);
  });
});
