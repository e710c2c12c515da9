/**
 * SMS providers behind one seam: `send(config, phones, params)` resolves when the provider accepted the message and
 * throws SmsRefused (the provider's own reason) or SmsUnreachable otherwise.
 * - 9, the development log: nothing leaves the server; the module writes the message to the usual log.
 * - 3, Aliyun (dysmsapi SendSms, API version 2017-05-25): an RPC-style request signed as Aliyun's public documentation
 *   describes (signature version 1.0): the parameters sorted by name, each name and value percent-encoded per RFC 3986
 *   (space %20, * %2A, ~ kept), joined with & and =; the string to sign is `POST&%2F&` + the encoded query; the
 *   signature is base64(HMAC-SHA1(secret + '&', string to sign)). The endpoint is SMS_ALIYUN_ENDPOINT (default
 *   https://dysmsapi.aliyuncs.com/), so a test can put a local server in its place.
 */
import { createHmac, randomUUID } from 'node:crypto';

export interface SmsConfig {
  category: number;
  templateId: string;
  accessKey: string;
  secretKey: string;
  regionId?: string | null;
  signName: string;
}

export class SmsRefused extends Error {}
export class SmsUnreachable extends Error {}

export const SMS_LOG = 9;
export const SMS_ALIYUN = 3;
export const SUPPORTED_CATEGORIES = [SMS_ALIYUN, SMS_LOG];

export function percentEncode(v: string): string {
  return encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Aliyun RPC signature (version 1.0) of `params` for `method`. */
export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const query = Object.keys(params).sort().map((k) => `${percentEncode(k)}=${percentEncode(params[k])}`).join('&');
  const toSign = `${method}&${percentEncode('/')}&${percentEncode(query)}`;
  return createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
}

async function sendAliyun(c: SmsConfig, phones: string[], params: Record<string, unknown>): Promise<string> {
  const endpoint = process.env.SMS_ALIYUN_ENDPOINT || 'https://dysmsapi.aliyuncs.com/';
  const body: Record<string, string> = {
    AccessKeyId: c.accessKey,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: phones.join(','),
    RegionId: c.regionId || 'cn-hangzhou',
    SignName: c.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    TemplateCode: c.templateId,
    TemplateParam: JSON.stringify(params),
    Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: '2017-05-25',
  };
  body.Signature = aliyunSignature('POST', body, c.secretKey);
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Object.entries(body).map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    throw new SmsUnreachable((e as Error).message);
  }
  let reply: { Code?: string; Message?: string; BizId?: string } = {};
  try {
    reply = (await res.json()) as typeof reply;
  } catch {
    throw new SmsUnreachable(`HTTP ${res.status}`);
  }
  if (reply.Code !== 'OK') throw new SmsRefused(`${reply.Code ?? res.status}: ${reply.Message ?? ''}`.trim());
  return reply.BizId ?? '';
}

/** Sends through the configuration's provider; the provider's message id ('' for the log). */
export async function sendSms(c: SmsConfig, phones: string[], params: Record<string, unknown>): Promise<string> {
  if (c.category === SMS_ALIYUN) return sendAliyun(c, phones, params);
  if (c.category === SMS_LOG) return '';
  throw new SmsRefused('unsupported provider');
}
