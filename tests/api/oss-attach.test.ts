/**
 * Object storage and attachments (issue 11): configurations with a sealed secret, one in use per tenant after the
 * bucket answered, uploads written to the active store — a real S3-compatible server (s3rver) behind a front that
 * checks AWS Signature V4 with the secret — read back through the S3 server and through our link, listed as
 * attachments, downloaded under their own name; a removal takes the object too and is refused while a record
 * still shows the file; a configuration holding attachments cannot be removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealStoredSecrets } from '../../src/server/crud/secrets.js';
import { newId } from '../../src/server/lib/ids.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { multipart, startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

const OSS = '/api/blade-resource/oss';
const ATTACH = '/api/blade-resource/attach';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 5)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2 * 1024 * 1024, 32)]);

let t: TestServer;
let s3: TestS3;
let admin: string;

beforeAll(async () => {
  s3 = await startTestS3();
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const post = (url: string, payload?: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const minio = () => ({ category: 1, ossCode: 'minio-main', endpoint: s3.endpoint, bucketName: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey, region: 'us-east-1', remark: '测试' });
const upload = (content: Buffer, filename: string, type: string, url = `${OSS}/endpoint/put-file-attach`, token = admin) =>
  t.call(token, { method: 'POST', url, ...multipart(content, filename, type) });
const ossId = async (code: string) => String((await t.database.db.selectFrom('blade_oss').select('id').where('oss_code', '=', code).executeTakeFirstOrThrow()).id);

describe('object storage configurations', () => {
  it('check what an S3 store needs; keep the secret write-only and sealed at rest', async () => {
    const noSecret = await post(`${OSS}/submit`, { ...minio(), secretKey: '' });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.data).toEqual([{ field: 'secretKey', message: '请输入 SecretKey' }]);
    const badEndpoint = await post(`${OSS}/submit`, { ...minio(), endpoint: 'ftp://files' });
    expect(badEndpoint.status).toBe(400);
    expect(badEndpoint.body.data[0].field).toBe('endpoint');
    const noBucket = await post(`${OSS}/submit`, { ...minio(), bucketName: undefined });
    expect(noBucket.body.data.map((e: { field: string }) => e.field)).toEqual(['bucketName']);
    // local needs none of it (and keeps none of it)
    const local = data(await post(`${OSS}/submit`, { category: 5, ossCode: 'disk', endpoint: 'http://ignored', secretKey: 'ignored' }));
    const localRow = await t.database.db.selectFrom('blade_oss').selectAll().where('id', '=', local.id).executeTakeFirstOrThrow();
    expect([localRow.endpoint, localRow.secret_key, localRow.status]).toEqual([null, null, 1]);

    const { id } = data(await post(`${OSS}/submit`, minio()));
    const detail = data(await get(`${OSS}/detail?id=${id}`));
    expect(detail).toMatchObject({ ossCode: 'minio-main', endpoint: s3.endpoint, bucketName: s3.bucket, accessKey: s3.accessKey, status: 1 });
    expect(detail.secretKey).toBeUndefined();
    expect(JSON.stringify(data(await get(`${OSS}/list`)))).not.toContain(s3.secretKey);
    const sealed = String((await t.database.db.selectFrom('blade_oss').select('secret_key').where('id', '=', id).executeTakeFirstOrThrow()).secret_key);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain(s3.secretKey);
    // an edit without the secret keeps it; the same secret seals differently each time (random IV)
    data(await post(`${OSS}/submit`, { id, remark: '主存储', secretKey: '' }));
    const after = await t.database.db.selectFrom('blade_oss').select(['secret_key', 'remark']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ secret_key: sealed, remark: '主存储' });
    expect(t.app.ctx.secrets.seal(s3.secretKey)).not.toBe(t.app.ctx.secrets.seal(s3.secretKey));
    expect(t.app.ctx.secrets.open(sealed)).toBe(s3.secretKey);
  });

  it('seal a secret stored before encryption at the next start (a plain column value)', async () => {
    const id = newId();
    await t.database.db.insertInto('blade_oss').values({ id, tenant_id: '000000', category: 1, oss_code: 'legacy', endpoint: s3.endpoint, bucket_name: 'old', access_key: 'k', secret_key: 'plain-old-secret', status: 1, is_deleted: 0 }).execute();
    expect(await sealStoredSecrets(t.app)).toBe(1);
    const v = String((await t.database.db.selectFrom('blade_oss').select('secret_key').where('id', '=', id).executeTakeFirstOrThrow()).secret_key);
    expect(v).toMatch(/^enc:v1:/);
    expect(t.app.ctx.secrets.open(v)).toBe('plain-old-secret');
    expect(await sealStoredSecrets(t.app)).toBe(0);
    data(await post(`${OSS}/remove?ids=${id}`));
  });

  it('enable only a store that answers: wrong key, wrong secret and a missing bucket are refused with the reason', async () => {
    const wrongKey = data(await post(`${OSS}/submit`, { ...minio(), ossCode: 'wrong-key', accessKey: 'NOSUCHKEY' }));
    const r1 = await post(`${OSS}/enable?id=${wrongKey.id}`);
    expect(r1.status).toBe(400);
    expect(r1.body.msg).toMatch(/^无法使用该存储：.*InvalidAccessKeyId|^无法使用该存储：.*HTTP 403/);
    const wrongSecret = data(await post(`${OSS}/submit`, { ...minio(), ossCode: 'wrong-secret', secretKey: 'not-the-secret' }));
    const refusedBefore = s3.refused.length;
    expect((await post(`${OSS}/enable?id=${wrongSecret.id}`)).status).toBe(400);
    expect(s3.refused.slice(refusedBefore).map((r) => r.code)).toContain('SignatureDoesNotMatch');
    const noBucket = data(await post(`${OSS}/submit`, { ...minio(), ossCode: 'no-bucket', bucketName: 'no-such-bucket' }));
    const r3 = await t.call(admin, { method: 'POST', url: `${OSS}/enable?id=${noBucket.id}`, headers: { 'accept-language': 'en' } });
    expect(r3.body.msg).toBe('This storage cannot be used: bucket no-such-bucket not found. Check the endpoint, bucket and keys');
    const statuses = await t.database.db.selectFrom('blade_oss').select('status').where('tenant_id', '=', '000000').where('is_deleted', '=', 0).execute();
    expect(statuses.every((s) => Number(s.status) === 1)).toBe(true);
    data(await post(`${OSS}/remove?ids=${[wrongKey.id, wrongSecret.id, noBucket.id].join(',')}`));
  });
});

describe('uploads through the active store', () => {
  let first: { link: string; name: string; attachId: string };

  it('without a store in use, go to the server disk', async () => {
    const r = data(await upload(PNG, 'disk.png', 'image/png'));
    const row = await t.database.db.selectFrom('blade_attach').select('oss_id').where('id', '=', r.attachId).executeTakeFirstOrThrow();
    expect(row.oss_id).toBeNull();
    expect(await s3.object(r.name)).toBeUndefined();
    expect(Buffer.compare((await t.app.inject({ method: 'GET', url: r.link })).rawPayload, PNG)).toBe(0);
  });

  it('with the S3 store enabled: the object is in the bucket, signed with the sealed secret, and served by our link', async () => {
    const id = await ossId('minio-main');
    data(await post(`${OSS}/enable?id=${id}`));
    const passedBefore = s3.passed.length;
    first = data(await upload(PNG, '菜单封面.png', 'image/png'));
    expect(s3.passed.slice(passedBefore).some((r) => r.method === 'PUT' && r.url.includes(first.name))).toBe(true);
    // read back through the S3 server itself
    expect(Buffer.compare((await s3.object(first.name))!, PNG)).toBe(0);
    const row = await t.database.db.selectFrom('blade_attach').selectAll().where('id', '=', first.attachId).executeTakeFirstOrThrow();
    expect(String(row.oss_id)).toBe(id);
    // and through our capability link (no token), from the bucket
    const served = await t.app.inject({ method: 'GET', url: first.link });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, PNG)).toBe(0);
    // the server's disk holds nothing of it
    expect(fs.existsSync(path.join(t.config.dataDir, first.name))).toBe(false);
  });

  it('listed as an attachment (searchable by name and date), downloaded under its own name', async () => {
    const page = data(await get(`${ATTACH}/list?originalName=${encodeURIComponent('菜单')}`));
    expect(page.records).toHaveLength(1);
    expect(page.records[0]).toMatchObject({ originalName: '菜单封面.png', link: first.link, extension: 'png', attachSize: PNG.length, ossId: await ossId('minio-main'), ossCode: 'minio-main' });
    const today = new Date(Date.now() + 8 * 3600e3).toISOString().slice(0, 10);
    expect(data(await get(`${ATTACH}/list?createTime_dategt=${today}%2000:00:00`)).total).toBeGreaterThanOrEqual(2);
    expect(data(await get(`${ATTACH}/list?createTime_datelt=2000-01-01%2000:00:00`)).total).toBe(0);
    const dl = await t.app.inject({ method: 'GET', url: `${ATTACH}/download?id=${first.attachId}`, headers: { 'blade-auth': `bearer ${admin}` } });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="____.png"; filename*=UTF-8''${encodeURIComponent('菜单封面.png')}`);
    expect(Buffer.compare(dl.rawPayload, PNG)).toBe(0);
  });

  it('the attachments screen uploads a PDF up to 10 MB (its own form field) behind attach_upload', async () => {
    const r = data(await upload(PDF, '合同.pdf', 'application/pdf', `${ATTACH}/upload`));
    expect(r.name).toMatch(/\.pdf$/);
    expect((await s3.object(r.name))!.length).toBe(PDF.length);
    const viewer = await operator(t, 'attview', ['attach']);
    expect((await upload(PNG, 'a.png', 'image/png', `${ATTACH}/upload`, viewer.token)).status).toBe(403);
    expect((await get(`${ATTACH}/download?id=${r.attachId}`, viewer.token)).status).toBe(403);
    expect((await post(`${ATTACH}/remove?ids=${r.attachId}`, undefined, viewer.token)).status).toBe(403);
    expect((await post(`${ATTACH}/submit`, { originalName: 'x' })).status).toBe(403);
  });

  it('a removal is refused while a record shows the file, then takes the object with it', async () => {
    const banner = data(await post('/api/banner/submit', { putPlatform: 1, bannerTitle: '午餐', enableFlag: 1, banner: first.link }));
    const refused = await post(`${ATTACH}/remove?ids=${first.attachId}`);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('附件正在被「轮播图管理」使用，不能删除');
    expect(await s3.object(first.name)).toBeDefined();
    data(await post(`/api/banner/remove?ids=${banner.id}`));
    data(await post(`${ATTACH}/remove?ids=${first.attachId}`));
    expect(await s3.object(first.name)).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: first.link })).statusCode).toBe(404);
    expect((await get(`${ATTACH}/download?id=${first.attachId}`)).status).toBe(404);
  });

  it('a configuration still holding attachments cannot be removed; another tenant sees none of it', async () => {
    const id = await ossId('minio-main');
    const r = await post(`${OSS}/remove?ids=${id}`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('该配置中还存有 1 个附件，请先在附件管理中删除这些附件');
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009555', tenant_id: '555555', tenant_name: '别家', is_deleted: 0, status: 1 }).execute();
    const other = await operator(t, 'ossother', ['oss', 'oss_enable', 'attach', 'attach_download', 'attach_delete'], '555555');
    expect((await post(`${OSS}/enable?id=${id}`, undefined, other.token)).status).toBe(404);
    expect(data(await get(`${ATTACH}/list`, other.token)).total).toBe(0);
    const pdf = await t.database.db.selectFrom('blade_attach').select('id').where('extension', '=', 'pdf').executeTakeFirstOrThrow();
    expect((await get(`${ATTACH}/download?id=${pdf.id}`, other.token)).status).toBe(404);
    expect((await post(`${ATTACH}/remove?ids=${pdf.id}`, undefined, other.token)).status).toBe(404);
    // the other tenant's uploads still go to its own (default) store: the disk
    const own = data(await upload(PNG, 'o.png', 'image/png', `${OSS}/endpoint/put-file-attach?screen=banner&field=banner`, (await operator(t, 'bannerot', ['banner', 'banner_add'], '555555')).token));
    expect((await t.database.db.selectFrom('blade_attach').select('oss_id').where('id', '=', own.attachId).executeTakeFirstOrThrow()).oss_id).toBeNull();
  });

  it('an unreachable store is a clear 502 on reading, never a 500', async () => {
    const pdf = await t.database.db.selectFrom('blade_attach').select(['id', 'link']).where('extension', '=', 'pdf').where('tenant_id', '=', '000000').executeTakeFirstOrThrow();
    const id = await ossId('minio-main');
    // point the configuration at a closed port (as an edit would), then read
    await t.database.db.updateTable('blade_oss').set({ endpoint: 'http://127.0.0.1:9' }).where('id', '=', id).execute();
    const r = await get(`${ATTACH}/download?id=${pdf.id}`);
    expect(r.status).toBe(502);
    expect(r.body.msg).toMatch(/^对象存储不可用：/);
    await t.database.db.updateTable('blade_oss').set({ endpoint: s3.endpoint }).where('id', '=', id).execute();
    expect((await t.app.inject({ method: 'GET', url: String(pdf.link) })).statusCode).toBe(200);
  });
});
