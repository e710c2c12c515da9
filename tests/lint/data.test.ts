/**
 * The data files (schemas/data: dictionaries and the menu tree) are checked by the loader the server and the
 * lint share: each mistake is one `file: /pointer: message`, and the real files load clean and expand to the
 * rows the server inserts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../scripts/lint/json.js';
import { loadSeedData, readSeedData } from '../../src/server/seed/data.js';
import { seedMenuCodes } from '../../src/server/seed/menus.js';
import { FIXTURES, ROOT } from './helpers.js';

const lines = (root: string) => loadSeedData(path.join(FIXTURES, root), { parse: parseJson }).problems.map((p) => `${p.file}: ${p.pointer}: ${p.message}`);

describe('data files', () => {
  it('the project files load clean; a screen\'s compact buttons expand to codes, names, positions and API paths', () => {
    const data = loadSeedData(ROOT, { parse: parseJson });
    expect(data.problems).toEqual([]);
    expect(data.files).toContain('schemas/data/menus.json');
    const merchant = data.menus.find((m) => m.code === 'canteen')!.children.find((m) => m.code === 'merchant')!;
    expect(merchant).toMatchObject({ path: '/merchant/merchant', category: 1, sort: 1, alias: 'menu', source: 'ShopOutlined' });
    expect(merchant.children.map((b) => [b.code, b.alias, b.action, b.sort, b.path])).toEqual([
      ['merchant_add', 'add', 1, 1, '/api/merchant/submit'],
      ['merchant_edit', 'edit', 2, 2, '/api/merchant/submit'],
      ['merchant_delete', 'delete', 3, 3, '/api/merchant/remove'],
      ['merchant_view', 'view', 2, 4, '/api/merchant/view'],
      ['merchant_export', 'export', 1, 5, '/api/merchant/export'],
      ['merchant_reset_login_psw', 'reset_login_psw', 2, 6, '/api/merchant'],
      ['merchant_clear_pay_psw', 'clear_pay_psw', 2, 7, '/api/merchant'],
      ['merchant_unbind', 'unbind', 2, 8, '/api/merchant'],
    ]);
    const codes = seedMenuCodes(data.menus);
    expect(new Set(codes).size).toBe(codes.length);
    const flow = data.dictionaries.find((d) => d.code === 'flow')!;
    expect(flow).toMatchObject({ biz: false, items: [{ key: '1', value: '请假流程', valueEn: 'Leave', remark: 'leave' }] });
    expect(data.dictionaries.find((d) => d.code === 'merchant_status')?.biz).toBe(true);
  });

  it('reports what breaks the files\' JSON Schemas, at the pointer', () => {
    expect(lines('data-broken')).toEqual([
      'schemas/data/menus.json: /menus/0/children/0/buttons/2: must be one of: "add", "edit", "delete", "view", "export", "import"',
      'schemas/data/menus.json: /menus/0/children/1/path: must be a route path such as "/merchant/merchant" (leading slash, no trailing slash)',
      'schemas/data/dictionaries/business.json: /dictionaries/0/items/0/valueEN: unknown key "valueEN" (did you mean "valueEn"?)',
    ]);
  });

  it('reports repeated menu/button codes (standard buttons included), menu paths, dictionary codes and item keys', () => {
    expect(lines('data-duplicates')).toEqual([
      'schemas/data/menus.json: /menus/0/children/0/extraButtons/0/code: code "fx_add" is also at /menus/0/children/0/buttons/0',
      'schemas/data/menus.json: /menus/0/children/1/code: code "fx" is also at /menus/0/children/0/code',
      'schemas/data/menus.json: /menus/0/children/1/path: path "/fx/fx" is also at /menus/0/children/0/path',
      'schemas/data/dictionaries/system.json: /dictionaries/0/code: dictionary "yes_no" is also defined at schemas/data/dictionaries/business.json: /dictionaries/0/code',
      'schemas/data/dictionaries/system.json: /dictionaries/0/items/1/key: key "1" is also item 0',
    ]);
  });

  it('the server refuses to start on a broken file, naming file and pointer', () => {
    expect(() => readSeedData(path.join(FIXTURES, 'data-duplicates'))).toThrow(/^schemas\/data\/menus\.json: \/menus\/0\/children\/0\/extraButtons\/0\/code: code "fx_add"/);
  });
});
