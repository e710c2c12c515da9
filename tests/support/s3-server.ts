/**
 * A real S3-compatible server for tests: s3rver (an npm-packaged S3 implementation storing objects on disk),
 * behind a front that checks every request's AWS Signature Version 4 the way S3 does — s3rver itself checks only
 * the access key id, and our server must be shown to sign with the secret it keeps sealed. The front recomputes
 * the signature from the canonical request (method, path, sorted query, signed headers, payload hash) with the
 * secret of the access key and answers S3's own XML errors (InvalidAccessKeyId, SignatureDoesNotMatch).
 */
import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  /** What to type as the endpoint (the verifying front). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** Requests the front refused, with S3's error code. */
  refused: Array<{ method: string; url: string; code: string }>;
  /** Requests the front passed on. */
  passed: Array<{ method: string; url: string }>;
  /** The object's bytes read straight from s3rver (not through our server), undefined when absent. */
  object(key: string): Promise<Buffer | undefined>;
  /** The keys in the bucket, read straight from s3rver. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The SigV4 signature S3 expects for this request, or the S3 error code that refuses it. */
export function verifySigV4(req: http.IncomingMessage, secrets: Map<string, string>): 'ok' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch' | 'AccessDenied' {
  const auth = String(req.headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'AccessDenied';
  const [, accessKey, day, region, signedHeaders, signature] = m;
  const secret = secrets.get(accessKey);
  if (secret === undefined) return 'InvalidAccessKeyId';
  const [rawPath, rawQuery = ''] = (req.url ?? '/').split('?');
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((p) => p.split('=').map((x) => rfc3986(decodeURIComponent(x ?? ''))))
    .map(([k, v = '']) => [k, v])
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signedHeaders.split(';').map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payload = String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
  const canonical = [req.method, rawPath, query, headers, signedHeaders, payload].join('\n');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 's3'), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature ? 'ok' : 'SignatureDoesNotMatch';
}

export async function startTestS3(bucket = 'canteen-files'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-s3-'));
  // s3rver knows the access key S3RVER (secret S3RVER); the front knows ours and signs nothing itself
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: inner } = (await s3.run()) as AddressInfo;
  const accessKey = 'CANTEENTESTKEY';
  const secretKey = 'canteen-test-secret/with+symbols';
  const secrets = new Map([[accessKey, secretKey]]);
  const refused: TestS3['refused'] = [];
  const passed: TestS3['passed'] = [];
  const front = http.createServer((req, res) => {
    const verdict = verifySigV4(req, secrets);
    if (verdict !== 'ok') {
      refused.push({ method: String(req.method), url: String(req.url), code: verdict });
      req.resume();
      res.writeHead(403, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${verdict}</Code><Message>refused by the test front</Message></Error>`);
    }
    passed.push({ method: String(req.method), url: String(req.url) });
    // s3rver checks only that the key exists: pass the request on as its own account
    const headers = { ...req.headers, authorization: String(req.headers.authorization).replace(/Credential=[^/]+\//, 'Credential=S3RVER/') };
    const out = http.request({ host: '127.0.0.1', port: inner, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const direct = new S3Client({ endpoint: `http://127.0.0.1:${inner}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    accessKey,
    secretKey,
    bucket,
    refused,
    passed,
    async object(key) {
      try {
        const r = await direct.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await r.Body!.transformToByteArray());
      } catch (e) {
        if ((e as { name?: string }).name === 'NoSuchKey') return undefined;
        throw e;
      }
    },
    async keys() {
      const r = await direct.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (r.Contents ?? []).map((o) => String(o.Key));
    },
    async close() {
      direct.destroy();
      front.closeAllConnections?.();
      await new Promise((r) => front.close(r));
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
