/**
 * A small, fixed lint context for the fixture documents under tests/lint/fixtures: three dictionaries,
 * the fx/fy menus, two tiny locales and the routes an app would serve. The real context (seeds, locales,
 * buildApp) is exercised by the "all of schemas/ lints clean" test.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dictionaryIndex, menuIndex, type LintContext } from '../../scripts/lint/crossref.js';
import { lintPaths, type LintProblem } from '../../scripts/lint/index.js';
import { migrateDocument } from '../../src/server/documents.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = path.join(ROOT, 'tests/lint/fixtures');

const fx = {
  title: '测试',
  field: { name: '名称', status: '状态', enableFlag: '上架', fee: '费率', psw: '密码', logo: '图标', period: '期间', total: '合计', bind: '绑定', enableTime: '上架时间' },
  msg: { name: '请输入名称', nameMax: '名称过长' },
  tip: { logo: '只能上传png/jpeg' },
  action: { reset: '重置' },
  confirm: { reset: '确定重置?' },
};

export const TEST_CONTEXT: LintContext = {
  currentSchemaVersion: 1,
  migrate: migrateDocument,
  dictionaries: dictionaryIndex([
    { code: 'merchant_status', items: [1, 2, 3].map((k) => ({ key: String(k), value: String(k) })) },
    { code: 'merchant_enable_flag', items: [1, 2, 3].map((k) => ({ key: String(k), value: String(k) })) },
    { code: 'yes_no', items: [1, 2].map((k) => ({ key: String(k), value: String(k) })) },
  ]),
  menus: menuIndex([
    {
      code: 'canteen',
      path: '/canteen',
      children: [
        { code: 'fx', path: '/fx/fx', children: ['add', 'edit', 'delete', 'view', 'export', 'reset'].map((b) => ({ code: `fx_${b}` })) },
        { code: 'fy', path: '/fy/fy', children: [{ code: 'fy_view' }, { code: 'fy_export' }] },
        { code: 'fxmd', path: '/fx/md' },
      ],
    },
  ]),
  locales: {
    'locales/zh.json': { fx: { ...fx, confirm: { ...fx.confirm, zhOnly: '仅中文' } } },
    'locales/en.json': { fx },
  },
  screens: new Set(['fx', 'fy']),
  hasRoute: (method, url) =>
    new Set(['GET /api/fx/list', 'GET /api/fx/detail', 'POST /api/fx/submit', 'POST /api/fx/remove', 'GET /api/fx/reset/loginPsw']).has(`${method} ${url}`),
};

/** Lint fixture files (paths relative to tests/lint/fixtures); file names in problems are relative to it. */
export function lintFixtures(...files: string[]): LintProblem[] {
  return lintPaths(files.map((f) => path.join(FIXTURES, f)), TEST_CONTEXT, { root: ROOT, cwd: FIXTURES }).problems;
}
