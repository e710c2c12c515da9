import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, multipart, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 2)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 32)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(200, 3)]);
const sized = (head: Buffer, bytes: number) => Buffer.concat([head, Buffer.alloc(bytes - head.length, 7)]);

const put = (content: Buffer, filename: string, type: string, query = '', endpoint = 'put-file-attach', token = admin) =>
  t.call(token, { method: 'POST', url: `/api/blade-resource/oss/endpoint/${endpoint}${query}`, ...multipart(content, filename, type) });

describe('uploads', () => {
  it('stores a png, records blade_attach and serves it back without a token', async () => {
    const r = await put(PNG, 'logo.png', 'image/png', '?screen=merchant&field=logoUrl');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body.data;
    expect(Object.keys(d).sort()).toEqual(['attachId', 'domain', 'link', 'name', 'originalName']);
    expect(d.originalName).toBe('logo.png');
    expect(d.link).toMatch(/^\/api\/blade-resource\/oss\/file\/\d{8}\/[0-9a-f]{32}\.png$/);
    expect(d.name).toMatch(/^upload\/\d{8}\/[0-9a-f]{32}\.png$/);
    expect(d.attachId).toMatch(/^\d+$/);
    const attach = await t.database.db.selectFrom('blade_attach').selectAll().where('id', '=', d.attachId).executeTakeFirstOrThrow();
    expect(attach.original_name).toBe('logo.png');
    expect(Number(attach.attach_size)).toBe(PNG.length);
    const got = await t.app.inject({ method: 'GET', url: d.link });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.rawPayload, PNG)).toBe(0);
    const guess = await t.app.inject({ method: 'GET', url: d.link.replace(/[0-9a-f]{32}/, '0'.repeat(32)) });
    expect(guess.statusCode).toBe(404);
    const traversal = await t.app.inject({ method: 'GET', url: '/api/blade-resource/oss/file/..%2F..%2Fetc/passwd' });
    expect(traversal.statusCode).toBe(404);
  });

  it('without a document field: put-file-attach takes png/jpeg ≤ 1024 KB and pdf ≤ 10 MB, nothing else', async () => {
    expect((await put(JPEG, 'a.jpg', 'image/jpeg')).status).toBe(200);
    expect((await put(PDF, 'c.pdf', 'application/pdf')).status).toBe(200);
    expect((await put(sized(PNG, 1024 * 1024), 'max.png', 'image/png')).status).toBe(200);
    const big = await put(sized(PNG, 1024 * 1024 + 1), 'big.png', 'image/png');
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('文件大小不能超过1 MB');
    expect((await put(sized(PDF, 3 * 1024 * 1024), 'c.pdf', 'application/pdf')).status).toBe(200);
    const bigPdf = await put(sized(PDF, 10 * 1024 * 1024 + 1), 'c.pdf', 'application/pdf');
    expect(bigPdf.status).toBe(400);
    expect(bigPdf.body.msg).toBe('文件大小不能超过10 MB');
    // a type the server can recognise is still refused when no field asks for it
    const gif = await put(GIF, 'a.gif', 'image/gif');
    expect(gif.status).toBe(400);
    expect(gif.body.msg).toBe('不支持的文件类型');
    // empty or unknown screen/field: the same strict default
    expect((await put(sized(PNG, 1024 * 1024 + 1), 'big.png', 'image/png', '?screen=&field=')).status).toBe(400);
    expect((await put(sized(PNG, 1024 * 1024 + 1), 'big.png', 'image/png', '?screen=nope&field=logoUrl')).status).toBe(400);
    expect((await put(sized(PNG, 1024 * 1024 + 1), 'big.png', 'image/png', '?screen=merchant&field=merchantName')).status).toBe(400);
  });

  it('without a document field: put-file (the avatar endpoint) takes png/jpeg ≤ 500 KB only', async () => {
    expect((await put(sized(JPEG, 500 * 1024), 'a.jpg', 'image/jpeg', '', 'put-file')).status).toBe(200);
    const big = await put(sized(PNG, 500 * 1024 + 1), 'a.png', 'image/png', '', 'put-file');
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('文件大小不能超过500 KB');
    expect((await put(PDF, 'c.pdf', 'application/pdf', '', 'put-file')).status).toBe(400);
    // a document field that uses put-file has its own limits (messaging-app user avatar: 512000)
    expect((await put(sized(PNG, 510 * 1024), 'a.png', 'image/png', '?screen=wxUser&field=avatar', 'put-file')).status).toBe(400);
    expect((await put(sized(PNG, 490 * 1024), 'a.png', 'image/png', '?screen=wxUser&field=avatar', 'put-file')).status).toBe(200);
  });

  it('refuses a type the field does not accept, a lying MIME, and unknown content', async () => {
    const pdfAsLogo = await put(PDF, 'c.pdf', 'application/pdf', '?screen=merchant&field=logoUrl');
    expect(pdfAsLogo.status).toBe(400);
    expect(pdfAsLogo.body.msg).toBe('不支持的文件类型');
    const pngAsContract = await put(PNG, 'x.png', 'image/png', '?screen=merchant&field=contractUrl');
    expect(pngAsContract.status).toBe(400);
    const lying = await put(Buffer.from('<script>alert(1)</script>'), 'evil.png', 'image/png');
    expect(lying.status).toBe(400);
    const mismatch = await put(PNG, 'x.pdf', 'application/pdf');
    expect(mismatch.status).toBe(400);
    const html = await put(Buffer.from('<html></html>'), 'x.html', 'text/html');
    expect(html.status).toBe(400);
  });

  it('refuses a file over the field limit (logo ≤ 1024 KB) but takes it where the limit is larger', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10, 7)]);
    const r = await put(big, 'big.png', 'image/png', '?screen=merchant&field=logoUrl');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('文件大小不能超过1 MB');
    const en = await t.call(admin, { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file-attach?screen=merchant&field=logoUrl&lang=en', ...multipart(big, 'big.png', 'image/png') });
    expect(en.body.msg).toBe('The file must not exceed 1 MB');
    // the banner image may be up to 5000 KB
    expect((await put(big, 'big.png', 'image/png', '?screen=banner&field=banner')).status).toBe(200);
    expect((await put(sized(PNG, 5000 * 1024 + 1), 'big.png', 'image/png', '?screen=banner&field=banner')).status).toBe(400);
  });

  it('needs a token and a file field', async () => {
    const anon = await t.call(undefined, { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', ...multipart(PNG, 'a.png', 'image/png') });
    expect(anon.status).toBe(401);
    const r = await t.call(admin, { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', ...multipart(PNG, 'a.png', 'image/png', 'other') });
    expect(r.status).toBe(400);
  });
});

describe('upload fields of the generic submit', () => {
  it('store only links this server handed out to the tenant, of attachments not deleted', async () => {
    const up = await put(PNG, 'logo.png', 'image/png', '?screen=merchant&field=logoUrl');
    const link: string = up.body.data.link;
    const submit = (body: Record<string, unknown>, lang = '') => t.call(admin, { method: 'POST', url: `/api/merchant/submit${lang}`, payload: body });

    const foreign = await submit(merchantBody({ merchantName: '外链商家', logoUrl: 'http://evil.example/x.png' }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe('文件不存在或已删除,请重新上传');
    expect(foreign.body.data[0].field).toBe('logoUrl');
    const guessed = await submit(merchantBody({ merchantName: '猜的', logoUrl: link.replace(/[0-9a-f]{32}/, 'a'.repeat(32)) }), '?lang=en');
    expect(guessed.status).toBe(400);
    expect(guessed.body.msg).toBe('The file does not exist or was deleted, upload it again');

    const good = await submit(merchantBody({ merchantName: '有标志', logoUrl: link }));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const id = good.body.data.id;
    // the absolute form (domain + link) is accepted and stored as the link
    const abs = await submit(merchantBody({ id, merchantName: '有标志', logoUrl: `http://localhost:8080${link}` }));
    expect(abs.status, JSON.stringify(abs.body)).toBe(200);
    expect((await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data.logoUrl).toBe(link);
    // clearing is fine
    expect((await submit(merchantBody({ id, merchantName: '有标志', logoUrl: '' }))).status).toBe(200);

    // an unchanged older value does not block editing the other fields
    await t.database.db.updateTable('canteen_merchant').set({ logo_url: 'http://old.example/logo.png' }).where('id', '=', id).execute();
    expect((await submit(merchantBody({ id, merchantName: '改名', logoUrl: 'http://old.example/logo.png' }))).status).toBe(200);

    // another tenant's file, or a deleted attachment, is refused
    await t.database.db.updateTable('blade_attach').set({ tenant_id: '111111' }).where('link', '=', link).execute();
    expect((await submit(merchantBody({ id, merchantName: '改名', logoUrl: link }))).status).toBe(400);
    await t.database.db.updateTable('blade_attach').set({ tenant_id: '000000', is_deleted: 1 }).where('link', '=', link).execute();
    expect((await submit(merchantBody({ id, merchantName: '改名', logoUrl: link }))).status).toBe(400);
  });
});
