/**
 * Where uploaded files live. The tenant's enabled object-storage configuration (blade_oss, status 2) chooses:
 * category 5 (local) or no enabled configuration → the server's disk under DATA_DIR/upload; every other category
 * (MinIO, Qiniu, Aliyun OSS, Tencent COS, Amazon S3 or any S3-compatible service) → its S3 API through
 * @aws-sdk/client-s3. MinIO and the generic S3 category use path-style addresses (endpoint/bucket/key), the
 * clouds virtual-hosted ones (bucket.endpoint/key); Tencent COS bucket names carry the APPID (`name-appid`).
 *
 * Objects are keyed `upload/yyyyMMdd/<128 random bits>.<ext>` in every store, and always served back through this
 * server's capability link (index.ts), so no bucket has to be public and a link stays valid whichever store holds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { loadOnce } from '../../../shared/loadOnce.js';

/** The S3 SDK is loaded when a cloud store is first used (shared/loadOnce.ts): most installs keep files on disk. */
const loadS3 = loadOnce(() => import('@aws-sdk/client-s3'));
type S3 = Awaited<ReturnType<typeof loadS3>>;

export const OSS_LOCAL = 5;
/** Categories reached through the S3 API (dictionary `oss`). */
export const S3_CATEGORIES = [1, 2, 3, 4, 6];
const PATH_STYLE = new Set([1, 6]);
const TENCENT = 4;

export interface ObjectStore {
  /** blade_oss id of the configuration, undefined for the server's disk. */
  ossId?: string;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  read(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
  /** Reachable with these credentials (the bucket exists and answers); throws StoreUnreachable otherwise. */
  check(): Promise<void>;
}

/** The store refused or could not be reached; `reason` is safe to show (no secret in it). */
export class StoreUnreachable extends Error {}
/** The object is not in the store. */
export class ObjectMissing extends Error {}

export class LocalStore implements ObjectStore {
  constructor(private dataDir: string) {}

  private file(key: string): string {
    return path.join(this.dataDir, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file(key)), { recursive: true });
    await fs.promises.writeFile(this.file(key), body, { flag: 'wx' });
  }

  async read(key: string): Promise<Readable> {
    try {
      await fs.promises.access(this.file(key));
    } catch {
      throw new ObjectMissing(key);
    }
    return fs.createReadStream(this.file(key));
  }

  async remove(key: string): Promise<void> {
    await fs.promises.rm(this.file(key), { force: true });
  }

  async check(): Promise<void> {
    await fs.promises.mkdir(path.join(this.dataDir, 'upload'), { recursive: true });
  }
}

/** An S3-API configuration with its secret already opened. */
export interface S3Config {
  id: string;
  category: number;
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucketName: string;
  region?: string | null;
  appId?: string | null;
}

export function bucketOf(cfg: Pick<S3Config, 'category' | 'bucketName' | 'appId'>): string {
  const { bucketName, appId } = cfg;
  return cfg.category === TENCENT && appId && !bucketName.endsWith(`-${appId}`) ? `${bucketName}-${appId}` : bucketName;
}

export class S3Store implements ObjectStore {
  readonly ossId: string;
  private client: S3Client | undefined;
  private readonly bucket: string;

  constructor(private readonly cfg: S3Config) {
    this.ossId = cfg.id;
    this.bucket = bucketOf(cfg);
  }

  /** The client of this configuration, made on the first call. */
  private clientOf(s3: S3): S3Client {
    const { cfg } = this;
    this.client ??= new s3.S3Client({
      endpoint: cfg.endpoint.replace(/\/+$/, ''),
      region: cfg.region || 'us-east-1',
      forcePathStyle: PATH_STYLE.has(cfg.category),
      credentials: { accessKeyId: cfg.accessKey, secretAccessKey: cfg.secretKey },
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60000 },
    });
    return this.client;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.call((s3) => this.clientOf(s3).send(new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length })));
  }

  async read(key: string): Promise<Readable> {
    const r = await this.call((s3) => this.clientOf(s3).send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: key })));
    if (!(r.Body instanceof Readable)) throw new StoreUnreachable('empty body');
    return r.Body;
  }

  async remove(key: string): Promise<void> {
    await this.call((s3) => this.clientOf(s3).send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async check(): Promise<void> {
    await this.call((s3) => this.clientOf(s3).send(new s3.HeadBucketCommand({ Bucket: this.bucket })));
  }

  destroy(): void {
    this.client?.destroy();
    this.client = undefined;
  }

  /** S3 errors as ours: a missing key is ObjectMissing, anything else StoreUnreachable with the service's code. */
  private async call<T>(fn: (s3: S3) => Promise<T>): Promise<T> {
    const s3 = await loadS3();
    try {
      return await fn(s3);
    } catch (e) {
      if (e instanceof s3.S3ServiceException) {
        if (e.name === 'NoSuchKey') throw new ObjectMissing(e.name);
        const status = e.$metadata?.httpStatusCode;
        throw new StoreUnreachable(e.name === 'NotFound' || e.name === 'NoSuchBucket' ? `bucket ${this.bucket} not found` : `${e.name}${status ? ` (HTTP ${status})` : ''}`);
      }
      const err = e as { code?: string; message?: string; name?: string };
      throw new StoreUnreachable(err.code ?? err.name ?? 'error');
    }
  }
}
