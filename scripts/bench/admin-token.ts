/** A bearer token for the seeded admin, obtained through the real password grant (md5 of the password). */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export async function adminToken(app: FastifyInstance): Promise<string> {
  const md5 = createHash('md5').update('admin').digest('hex');
  const res = await app.inject({
    method: 'POST',
    url: `/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5}&grant_type=password&scope=all`,
    headers: { authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64') },
  });
  const token = res.json().access_token;
  if (typeof token !== 'string') throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return token;
}
