/**
 * The real thing: `npm run lint:schemas` over all of schemas/ with the real seeds, locales and app routes,
 * and the command line's output format and exit code.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContext, type LoadedContext } from '../../scripts/lint/context.js';
import { formatProblem, lintPaths } from '../../scripts/lint/index.js';
import { FIXTURES, ROOT } from './helpers.js';

const run = promisify(execFile);
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

describe('schema lint on the real project', () => {
  let loaded: LoadedContext;
  beforeAll(async () => {
    loaded = await loadContext(ROOT);
  });
  afterAll(async () => {
    await loaded?.close();
  });

  it('loads the seeds, both locales, the migrations and the app routes', () => {
    expect(loaded.problems.map(formatProblem)).toEqual([]);
    expect(loaded.ctx.dictionaries?.get('merchant_enable_flag')).toEqual(['1', '2', '3']);
    expect(loaded.ctx.menus?.has('merchant_reset_login_psw')).toBe(true);
    expect(loaded.ctx.hasRoute?.('GET', '/api/merchant/list')).toBe(true);
  });

  it('knows the routes without building the app: generic ones from the documents, module ones from their source', () => {
    const has = loaded.ctx.hasRoute!;
    expect(has('POST', '/api/merchant/submit')).toBe(true);
    expect(has('GET', '/api/merchant/reset/loginPsw')).toBe(true);
    expect(has('POST', '/api/settlement/auditBatch')).toBe(true);
    expect(has('GET', '/api/blade-resource/oss/file/20260101/a.png')).toBe(true);
    expect(has('GET', '/api/merchant/reset/loginPswd')).toBe(false);
    expect(has('POST', '/api/merchant/reset/loginPsw')).toBe(false);
    // (a module route written as `${api}/list` with a variable base reads as any …/list: never a false refusal)
    expect(has('GET', '/api/nobody/anything')).toBe(false);
  });

  it('all of schemas/ lints clean', () => {
    const result = lintPaths([path.join(ROOT, 'schemas')], loaded.ctx, { root: ROOT, cwd: ROOT });
    expect(result.files.length).toBeGreaterThan(0);
    expect(result.files).not.toContain('schemas/meta/screen.schema.json');
    expect(result.problems.map(formatProblem)).toEqual([]);
  });
});

describe('schema lint command line', () => {
  it('prints file: /pointer: message and exits 1 on a problem', async () => {
    const file = path.join(FIXTURES, 'broken/unknown-key.json');
    const err = await run(TSX, ['scripts/schema-lint.ts', '--', '--no-endpoints', file], { cwd: ROOT }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr).toContain('tests/lint/fixtures/broken/unknown-key.json: /schema/properties/name/maxlength: unknown key "maxlength" (did you mean "maxLength"?)\n');
    expect(err?.stderr).toMatch(/schema lint: \d+ problem\(s\) in 1 of 1 document\(s\)/);
  });

  it('a broken document the server would load gives its own line and nothing else (no "cannot build the app")', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-dirs-'));
    try {
      fs.copyFileSync(path.join(FIXTURES, 'broken/unknown-key.json'), path.join(dir, 'fz.json'));
      const file = path.join(dir, 'fz.json');
      const err = await run(TSX, ['scripts/schema-lint.ts', '--', file], { cwd: ROOT, env: { ...process.env, SCHEMA_DIRS: dir } }).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(err?.code).toBe(1);
      const lines = err!.stderr.split('\n').filter((l) => l.includes(': /'));
      expect(lines).toEqual([`${path.relative(ROOT, file)}: /schema/properties/name/maxlength: unknown key "maxlength" (did you mean "maxLength"?)`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
