/**
 * The lint's static route table: module routes read from source in the forms modules write them, variables
 * of known string constants resolved, others read as "any path here".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleRoutes } from '../../scripts/lint/routes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-routes-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('module routes read from source', () => {
  it('reads app.get/post calls and app.route objects, with :params, constants and variables', () => {
    fs.mkdirSync(path.join(dir, 'mod'));
    fs.writeFileSync(
      path.join(dir, 'mod', 'index.ts'),
      [
        "export const PREFIX = '/api/files/';",
        "app.get('/api/shop/reset/loginPsw', h);",
        'app.post(`${PREFIX}:day/:file`, h);',
        "app.route({ method: 'POST', url: '/api/shop/audit', handler: h });",
        'app.get(`${api}/tree`, h);',
        "cache.get('key');",
      ].join('\n'),
    );
    const routes = moduleRoutes([dir]);
    const has = (m: string, url: string) => routes.some(([method, re]) => method === m && re.test(url));
    expect(has('GET', '/api/shop/reset/loginPsw')).toBe(true);
    expect(has('POST', '/api/shop/reset/loginPsw')).toBe(false);
    expect(has('POST', '/api/files/20260101/a.png')).toBe(true);
    expect(has('POST', '/api/other/20260101/a.png')).toBe(false);
    expect(has('POST', '/api/shop/audit')).toBe(true);
    expect(has('GET', '/api/any/thing/tree')).toBe(true);
    expect(routes).toHaveLength(4);
  });
});
