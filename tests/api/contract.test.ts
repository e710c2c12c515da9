/** Contract check written from research/blade-contract.md (§1 R envelope, §2 pages, §3a token reply, §5 menus, §7 dictionaries). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, startTestServer, type TestServer } from './helpers.js';
import { loadDictionaries } from '../../src/server/crud/dictionaries.js';

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ID = /^[1-9]\d*$/;

function expectR(body: any, code = 200) {
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'msg', 'success']);
  expect(body.code).toBe(code);
  expect(body.success).toBe(code === 200);
  expect(typeof body.msg).toBe('string');
}

describe('R envelope and HTTP status mapping (§1)', () => {
  it('success is R code 200 操作成功', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/merchant/list' });
    expect(r.status).toBe(200);
    expectR(r.body);
    expect(r.body.msg).toBe('操作成功');
  });

  it('unknown API path → HTTP 404 R 404', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/nothing/here' });
    expect(r.status).toBe(404);
    expectR(r.body, 404);
  });

  it('business/validation error → HTTP 400 R 400', async () => {
    const r = await t.call(token, { method: 'POST', url: '/api/merchant/submit', payload: {} });
    expect(r.status).toBe(400);
    expectR(r.body, 400);
  });

  it('bad JSON body → HTTP 400 R', async () => {
    const r = await t.call(token, { method: 'POST', url: '/api/merchant/submit', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(r.status).toBe(400);
    expectR(r.body, 400);
  });

  it('unauthenticated → HTTP 401 R 401 请求未授权', async () => {
    const r = await t.call(undefined, { method: 'GET', url: '/api/merchant/list' });
    expect(r.status).toBe(401);
    expectR(r.body, 401);
    expect(r.body.msg).toBe('请求未授权');
  });
});

describe('pages (§2)', () => {
  it('records/total/size/current/pages, ids as strings, dates as yyyy-MM-dd HH:mm:ss', async () => {
    for (let i = 0; i < 3; i++) await t.call(token, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ merchantName: `页商家${i}` }) });
    const r = await t.call(token, { method: 'GET', url: '/api/merchant/list?current=2&size=3' });
    const d = r.body.data;
    expect(Object.keys(d).sort()).toEqual(['current', 'pages', 'records', 'size', 'total']);
    expect(d.current).toBe(2);
    expect(d.size).toBe(3);
    expect(d.total).toBeGreaterThanOrEqual(8); // 5 demo + 3
    expect(d.pages).toBe(Math.ceil(d.total / 3));
    expect(d.records).toHaveLength(3);
    for (const rec of d.records) {
      expect(typeof rec.id).toBe('string');
      expect(rec.id).toMatch(ID);
      expect(rec.createUser).toMatch(ID);
      expect(rec.createTime).toMatch(DATE_TIME);
      expect(rec.updateTime).toMatch(DATE_TIME);
      expect(rec.tenantId).toBe('000000');
      expect(rec).not.toHaveProperty('loginPsw');
      expect(rec).not.toHaveProperty('payPsw');
      expect(rec).not.toHaveProperty('isDeleted');
    }
  });

  it('defaults: current 1, size = the document default (10)', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/merchant/list' });
    expect(r.body.data.current).toBe(1);
    expect(r.body.data.size).toBe(10);
  });
});

describe('token reply (§3a) and menus (§5)', () => {
  it('token reply is raw (no R) with string ids', async () => {
    const r = await t.loginReply();
    expect(r).not.toHaveProperty('code');
    expect(typeof r.user_id).toBe('string');
    expect(typeof r.role_id).toBe('string');
    expect(typeof r.dept_id).toBe('string');
    expect(r.client_id).toBe('saber');
  });

  it('menu/routes is a tree of category-1 menus with MenuVO fields and nameEn; children omitted when empty', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/menu/routes' });
    expectR(r.body);
    const roots = r.body.data as any[];
    const canteen = roots.find((m) => m.code === 'canteen');
    expect(canteen).toMatchObject({ name: '食堂管理', nameEn: 'Canteen', path: '/canteen', category: 1, parentId: '0' });
    for (const k of ['id', 'parentId', 'code', 'name', 'nameEn', 'alias', 'path', 'source', 'sort', 'category', 'action', 'isOpen']) expect(canteen).toHaveProperty(k);
    const merchant = canteen.children.find((m: any) => m.code === 'merchant');
    expect(merchant.path).toBe('/merchant/merchant');
    expect(merchant.parentId).toBe(canteen.id);
    expect(merchant).not.toHaveProperty('children');
    const walk = (n: any): void => {
      expect(n.category).toBe(1);
      n.children?.forEach(walk);
    };
    roots.forEach(walk);
    const codes = JSON.stringify(roots);
    for (const c of ['system', 'authority', 'monitor', 'tool', 'flow', 'work', 'desk', 'resource', 'report']) expect(codes).toContain(`"code":"${c}"`);
  });

  it('menu/buttons gives the button codes under their menus', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/menu/buttons' });
    const codes: string[] = [];
    const walk = (n: any) => {
      if (!n.children) codes.push(n.code);
      n.children?.forEach(walk);
    };
    r.body.data.forEach(walk);
    for (const c of ['merchant_add', 'merchant_edit', 'merchant_delete', 'merchant_view', 'merchant_export', 'merchant_reset_login_psw', 'merchant_clear_pay_psw', 'merchant_unbind', 'user_reset', 'role_grant', 'job_run']) {
      expect(codes).toContain(c);
    }
  });

  it('menu/top-menu lists the top menus', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/menu/top-menu' });
    expectR(r.body);
    expect(r.body.data[0]).toMatchObject({ code: 'canteen', name: '食堂管理' });
    expect(typeof r.body.data[0].id).toBe('string');
    expect(r.body.data.map((m: any) => m.code)).toEqual(['canteen', 'platform']);
  });

  it('menu/routes?topMenuId= narrows the side menu to that top menu\'s sections', async () => {
    const tops = (await t.call(token, { method: 'GET', url: '/api/blade-system/menu/top-menu' })).body.data;
    const routes = async (id?: string) =>
      (await t.call(token, { method: 'GET', url: `/api/blade-system/menu/routes${id ? `?topMenuId=${id}` : ''}` })).body.data.map((m: any) => m.code);
    const all = await routes();
    const canteen = await routes(tops.find((x: any) => x.code === 'canteen').id);
    const platform = await routes(tops.find((x: any) => x.code === 'platform').id);
    expect(canteen).toEqual(['canteen']);
    expect(platform).not.toContain('canteen');
    expect(platform.length).toBeGreaterThan(3);
    expect([...canteen, ...platform].sort()).toEqual([...all].sort());
  });
});

describe('dictionaries (§7)', () => {
  it('dict/dictionary and dict-biz/dictionary answer R<List<Dict>> without the root row', async () => {
    const sys = await t.call(token, { method: 'GET', url: '/api/blade-system/dict/dictionary?code=sex' });
    expect(sys.body.data.map((d: any) => [d.dictKey, d.dictValue, d.dictValueEn])).toEqual([['1', '男', 'Male'], ['2', '女', 'Female'], ['3', '未知', 'Unknown']]);
    const biz = await t.call(token, { method: 'GET', url: '/api/blade-system/dict-biz/dictionary?code=merchant_enable_flag' });
    expect(biz.body.data.map((d: any) => d.dictValue)).toEqual(['立即上架', '暂不上架', '定时上架']);
    expect(biz.body.data[0]).toMatchObject({ code: 'merchant_enable_flag', dictKey: '1', sort: 1 });
  });

  it('dict/batch returns every asked code from both tables', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/dict/batch?codes=yes_no,merchant_status,nope' });
    expect(Object.keys(r.body.data).sort()).toEqual(['merchant_status', 'nope', 'yes_no']);
    expect(r.body.data.yes_no).toEqual([
      { dictKey: '1', dictValue: '否', dictValueEn: 'No', sort: 1 },
      { dictKey: '2', dictValue: '是', dictValueEn: 'Yes', sort: 2 },
    ]);
    expect(r.body.data.merchant_status).toHaveLength(3);
    expect(r.body.data.nope).toEqual([]);
  });

  it("a tenant's business dictionary replaces a system one of the same code, in the batch and for the server's checks", async () => {
    const db = t.app.ctx.db();
    const rows = [
      { id: '990001', parent_id: '0', code: 'yes_no', dict_key: '-1', dict_value: '是否', sort: 0 },
      { id: '990002', parent_id: '990001', code: 'yes_no', dict_key: '2', dict_value: '是的', sort: 1 },
    ];
    await db.insertInto('blade_dict_biz').values(rows.map((r) => ({ ...r, tenant_id: '000000', dict_value_en: null, remark: '', is_deleted: 0 })) as any).execute();
    try {
      const r = await t.call(token, { method: 'GET', url: '/api/blade-system/dict/batch?codes=yes_no,sex' });
      expect(r.body.data.yes_no).toEqual([{ dictKey: '2', dictValue: '是的', dictValueEn: '是的', sort: 1 }]);
      expect(r.body.data.sex).toHaveLength(3);
      const loaded = await loadDictionaries(db, ['yes_no'], '000000');
      expect(loaded.get('yes_no')!.map((e) => e.key)).toEqual(['2']);
      // a tenant without business dictionaries of its own gets the system tenant's (issue 14 finding 5), which win over blade_dict
      expect((await loadDictionaries(db, ['yes_no'], 'other1')).get('yes_no')!.map((e) => e.key)).toEqual(['2']);
    } finally {
      await db.deleteFrom('blade_dict_biz').where('id', 'in', rows.map((r) => r.id) as any).execute();
    }
  });

  it('every seeded dictionary of SEED.md is served', async () => {
    const codes = 'sex,yes_no,menu_category,button_func,notice,data_scope_type,api_scope_type,post_category,org_category,job_status,oss,sms,merchant_status,merchant_enable_flag,employee_status,order_status,order_type,account_type,account_records_type,settlement_status,banner_put_platform,banner_enable_flag,banner_status,user_type';
    const r = await t.call(token, { method: 'GET', url: `/api/blade-system/dict/batch?codes=${codes}` });
    for (const c of codes.split(',')) expect(r.body.data[c].length, c).toBeGreaterThan(0);
  });
});

describe('screen documents', () => {
  it('screen/list and screen/detail serve the documents the caller may open', async () => {
    const list = await t.call(token, { method: 'GET', url: '/api/blade-system/screen/list' });
    expect(list.body.data).toContainEqual({ id: 'merchant', route: '/merchant/merchant', title: 'merchant.title' });
    const d = await t.call(token, { method: 'GET', url: '/api/blade-system/screen/detail?id=merchant' });
    expect(d.body.data.resource.api).toBe('/api/merchant');
    const none = await t.call(token, { method: 'GET', url: '/api/blade-system/screen/detail?id=nope' });
    expect(none.status).toBe(404);
  });
});
