/**
 * SMS (issue 11): configurations with a write-only secret, one in use per tenant, and sending — through the
 * development log, and through Aliyun's SendSms API against a local server that checks the request and its
 * signature the way Aliyun documents it (a wrong secret is refused with Aliyun's own code), phones checked, a
 * rate per phone, a clear error without a configuration in use.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliyunSignature } from '../../src/server/modules/sms/providers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

const API = '/api/blade-resource/sms';
let t: TestServer;
let admin: string;

/** What a local stand-in for dysmsapi.aliyuncs.com received, and the secrets it knows. */
const aliyun = { requests: [] as Array<Record<string, string>>, secrets: new Map([['LTAI-test-key', 'test-secret-value']]) };
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const p = Object.fromEntries(new URLSearchParams(raw));
      aliyun.requests.push(p);
      const reply = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const { Signature, ...signed } = p;
      const secret = aliyun.secrets.get(p.AccessKeyId);
      if (!secret) return reply(404, { Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' });
      if (req.method !== 'POST' || Signature !== aliyunSignature('POST', signed, secret)) return reply(400, { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' });
      for (const k of ['Action', 'Version', 'PhoneNumbers', 'SignName', 'TemplateCode', 'SignatureNonce', 'Timestamp']) if (!p[k]) return reply(400, { Code: 'MissingParameter', Message: k });
      if (p.Action !== 'SendSms' || p.Version !== '2017-05-25' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(p.Timestamp)) return reply(400, { Code: 'InvalidParameter', Message: 'bad request' });
      reply(200, { Code: 'OK', Message: 'OK', BizId: `biz-${aliyun.requests.length}`, RequestId: 'req-1' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.SMS_ALIYUN_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => {
  delete process.env.SMS_ALIYUN_ENDPOINT;
  await t?.close();
  await new Promise((r) => server.close(r));
});

const post = (url: string, payload?: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
const send = (payload: Record<string, unknown>, token = admin) => post(`${API}/endpoint/send-message`, payload, token);
const aliyunConfig = { category: 3, smsCode: 'ali-verify', templateId: 'SMS_100001', accessKey: 'LTAI-test-key', secretKey: 'test-secret-value', regionId: 'cn-hangzhou', signName: '食堂饭卡' };

describe('SMS configurations', () => {
  it('keep the secret write-only and sealed: required on add, never read back, kept when an edit leaves it empty', async () => {
    const missing = await post(`${API}/submit`, { ...aliyunConfig, secretKey: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.data[0].field).toBe('secretKey');
    const unsupported = await post(`${API}/submit`, { ...aliyunConfig, category: 1 });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.msg).toBe('暂不支持该服务商，请选择阿里云或开发日志');
    const { id } = data(await post(`${API}/submit`, aliyunConfig));
    const detail = data(await t.call(admin, { method: 'GET', url: `${API}/detail?id=${id}` }));
    expect(detail).toMatchObject({ smsCode: 'ali-verify', accessKey: 'LTAI-test-key', status: 1 });
    expect(detail.secretKey).toBeUndefined();
    expect(JSON.stringify(data(await t.call(admin, { method: 'GET', url: `${API}/list` })))).not.toContain('test-secret-value');
    data(await post(`${API}/submit`, { id, signName: '食堂饭卡中心', secretKey: '' }));
    const stored = await t.database.db.selectFrom('blade_sms').select(['secret_key', 'sign_name']).where('id', '=', id).executeTakeFirstOrThrow();
    // sealed at rest (x-secret): the column holds no readable secret, the server's key opens it
    expect(stored.sign_name).toBe('食堂饭卡中心');
    expect(String(stored.secret_key)).toMatch(/^enc:v1:/);
    expect(String(stored.secret_key)).not.toContain('test-secret-value');
    expect(t.app.ctx.secrets.open(String(stored.secret_key))).toBe('test-secret-value');
    data(await post(`${API}/submit`, { id, signName: '食堂饭卡' }));
  });

  it('one in use per tenant: enabling one turns the other off', async () => {
    const log = data(await post(`${API}/submit`, { category: 9, smsCode: 'dev-log', templateId: 'T1', accessKey: '-', secretKey: '-', signName: '开发' }));
    const ali = (await t.database.db.selectFrom('blade_sms').select('id').where('sms_code', '=', 'ali-verify').executeTakeFirstOrThrow()).id;
    expect((await send({ phones: '13800138000' })).body.msg).toBe('没有启用的短信配置，请先在短信配置中启用一个');
    data(await post(`${API}/enable?id=${log.id}`));
    data(await post(`${API}/enable?id=${ali}`));
    const rows = await t.database.db.selectFrom('blade_sms').select(['sms_code', 'status']).where('is_deleted', '=', 0).orderBy('sms_code').execute();
    expect(rows).toEqual([{ sms_code: 'ali-verify', status: 2 }, { sms_code: 'dev-log', status: 1 }]);
    expect((await post(`${API}/enable?id=123`)).status).toBe(404);
  });
});

describe('sending', () => {
  it('through Aliyun: a signed SendSms the provider accepts; its id comes back', async () => {
    const before = aliyun.requests.length;
    const r = data(await send({ phones: '13800138000, 13900139000', params: '{"code":"4821"}' }));
    expect(r).toEqual({ phones: 2, bizId: `biz-${before + 1}` });
    const sent = aliyun.requests.at(-1)!;
    expect(sent).toMatchObject({ Action: 'SendSms', PhoneNumbers: '13800138000,13900139000', SignName: '食堂饭卡', TemplateCode: 'SMS_100001', TemplateParam: '{"code":"4821"}', AccessKeyId: 'LTAI-test-key', RegionId: 'cn-hangzhou' });
    expect(sent.secretKey ?? sent.AccessKeySecret).toBeUndefined();
  });

  it('a wrong secret: Aliyun refuses the signature and the caller is told so', async () => {
    aliyun.secrets.set('LTAI-test-key', 'rotated-secret');
    try {
      const r = await send({ phones: '13800138001' });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('短信服务商拒绝发送：SignatureDoesNotMatch: Specified signature is not matched with our calculation.');
    } finally {
      aliyun.secrets.set('LTAI-test-key', 'test-secret-value');
    }
  });

  it('checks phones and params, and holds 5 messages a phone an hour', async () => {
    expect((await send({ phones: '1380013800' })).body.msg).toBe('手机号 1380013800 格式不正确');
    expect((await send({ phones: '12800138000' })).status).toBe(400);
    expect((await send({ phones: '13800138002', params: '[1]' })).body.msg).toBe('模板参数须为 JSON 对象，如 {"code":"1234"}');
    expect((await send({ phones: Array.from({ length: 101 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',') })).status).toBe(400);
    for (let i = 0; i < 5; i++) data(await send({ phones: '13700137000' }));
    const sixth = await send({ phones: '13700137000' });
    expect(sixth.status).toBe(429);
    expect(sixth.body.msg).toBe('手机号 13700137000 发送过于频繁，请 1 小时后再试');
  });

  it('through the development log: nothing leaves the server, the usual log has it', async () => {
    const before = aliyun.requests.length;
    data(await send({ code: 'dev-log', phones: '13600136000', params: { code: '9' } }));
    expect(aliyun.requests.length).toBe(before);
    await t.app.ctx.logs.flush();
    const [row] = data(await t.call(admin, { method: 'GET', url: '/api/blade-log/usual/list?logId=sms' })).records;
    expect(row.logData).toContain('13600136000');
    expect(row.logData).toContain('开发日志');
  });

  it('needs sms_send; another tenant cannot use or enable this tenant\'s configurations', async () => {
    const noCode = await operator(t, 'smsnone', ['sms', 'sms_view']);
    expect((await send({ phones: '13800138000' }, noCode.token)).status).toBe(403);
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009444', tenant_id: '444444', tenant_name: '别家', is_deleted: 0, status: 1 }).execute();
    const other = await operator(t, 'smsother', ['sms', 'sms_send', 'sms_enable'], '444444');
    expect((await send({ code: 'ali-verify', phones: '13800138000' }, other.token)).body.msg).toBe('短信配置不存在');
    const ali = (await t.database.db.selectFrom('blade_sms').select('id').where('sms_code', '=', 'ali-verify').executeTakeFirstOrThrow()).id;
    expect((await post(`${API}/enable?id=${ali}`, undefined, other.token)).status).toBe(404);
  });
});
