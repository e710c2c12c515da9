/**
 * SMS (BladeX blade-resource/sms): the configurations are a screen document (`schemas/resource/sms.json`, generic
 * CRUD; the secret key `x-secret`: sealed at rest, never read back, kept when an edit leaves it empty), and this module adds
 *   POST /api/blade-resource/sms/enable?id                         (sms_enable) this one in use, the tenant's others off
 *   POST /api/blade-resource/sms/endpoint/send-message {code?, phones, params}   (sms_send)
 * A message goes through the configuration named by `code`, else the one in use; phones are checked like every
 * phone field (11 digits, 1[3-9]…), at most 100, each at most 5 messages an hour (counted in sms_send_record, which
 * is also the history of what was sent); params is a JSON object. The providers are providers.ts.
 */
import { sql } from 'kysely';
import { requirePermission, type ScreenHooks, type ServerModule } from '../../context.js';
import { CONFIG_DISABLED, CONFIG_ENABLED, enableOneHandler } from '../../crud/enable-one.js';
import { HttpError, ok } from '../../lib/http.js';
import { newId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { openSecret } from '../../lib/secret-box.js';
import { localDateTime } from '../../lib/time.js';
import { recordEvent } from '../log/index.js';
import { SMS_LOG, SUPPORTED_CATEGORIES, SmsRefused, SmsUnreachable, sendSms, type SmsConfig } from './providers.js';

const PHONE = /^1[3-9][0-9]{9}$/;
const MAX_PHONES = 100;
const PER_PHONE_HOUR = 5;

const smsHooks: ScreenHooks = {
  async beforeSave({ mode, values, req }) {
    if (values.category !== undefined && !SUPPORTED_CATEGORIES.includes(Number(values.category))) {
      const message = req.server.ctx.i18n.t(req.lang, 'sms.msg.unsupported');
      throw new HttpError(400, 'error.validation', {}, [{ field: 'category', message }], message);
    }
    if (mode === 'add' && (typeof values.secretKey !== 'string' || !values.secretKey)) {
      const message = req.server.ctx.i18n.t(req.lang, 'sms.msg.secretKey');
      throw new HttpError(400, 'error.validation', {}, [{ field: 'secretKey', message }], message);
    }
    if (mode === 'add') values.status = CONFIG_DISABLED;
  },
};

const smsModule: ServerModule = {
  name: 'sms',
  migrations: [
    {
      name: 'sms_0001_send_record',
      up: async (db) => {
        await sql`create table sms_send_record (id bigint primary key, tenant_id varchar(12) not null, sms_code varchar(32), phone varchar(11) not null,
          status varchar(10) not null, biz_id varchar(64), reason varchar(500), create_user bigint, create_time timestamp(0) not null)`.execute(db);
        await sql`create index sms_send_record_phone on sms_send_record (phone, create_time desc)`.execute(db);
      },
    },
  ],
  screenHooks: { sms: smsHooks },
  async plugin(app) {
    app.post('/api/blade-resource/sms/enable', enableOneHandler(app, { table: 'blade_sms', permission: 'sms_enable', notFound: 'sms.msg.notFound' }));

    app.post('/api/blade-resource/sms/endpoint/send-message', async (req) => {
      const user = await requirePermission(app, req, 'sms_send');
      const p = requestParams(req);
      const phones = [...new Set(String(p.phones ?? '').split(/[,，\s]+/).map((s) => s.trim()).filter(Boolean))];
      if (!phones.length) throw new HttpError(400, 'sms.msg.phones');
      if (phones.length > MAX_PHONES) throw new HttpError(400, 'sms.msg.tooManyPhones', { max: MAX_PHONES });
      const bad = phones.find((x) => !PHONE.test(x));
      if (bad) throw new HttpError(400, 'sms.msg.badPhone', { phone: bad.slice(0, 20) });
      let params: Record<string, unknown> = {};
      if (p.params !== undefined && p.params !== null && p.params !== '') {
        try {
          params = typeof p.params === 'string' ? JSON.parse(p.params) : (p.params as Record<string, unknown>);
        } catch {
          throw new HttpError(400, 'sms.msg.badParams');
        }
        if (!params || typeof params !== 'object' || Array.isArray(params)) throw new HttpError(400, 'sms.msg.badParams');
      }
      const db = app.ctx.db();
      const code = typeof p.code === 'string' ? p.code.trim() : '';
      let q = db.selectFrom('blade_sms').select(['sms_code', 'category', 'template_id', 'access_key', 'secret_key', 'region_id', 'sign_name'])
        .where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0);
      q = code ? q.where('sms_code', '=', code) : q.where('status', '=', CONFIG_ENABLED);
      const row = await q.executeTakeFirst();
      if (!row) throw new HttpError(400, code ? 'sms.msg.notFound' : 'sms.msg.noConfig');
      // at most PER_PHONE_HOUR messages a phone an hour (what was sent or tried)
      const recent = await db.selectFrom('sms_send_record').select(['phone', sql<string>`count(*)`.as('n')])
        .where('phone', 'in', phones).where(sql<boolean>`create_time > localtimestamp - interval '1 hour'`).where('status', '=', 'sent').groupBy('phone').execute();
      const busy = recent.find((r) => Number(r.n) >= PER_PHONE_HOUR);
      if (busy) throw new HttpError(429, 'sms.msg.rateLimited', { phone: busy.phone });
      const config: SmsConfig = {
        category: Number(row.category), templateId: String(row.template_id ?? ''), accessKey: String(row.access_key ?? ''), secretKey: openSecret(app, row.secret_key),
        regionId: row.region_id as string | null, signName: String(row.sign_name ?? ''),
      };
      const record = (status: 'sent' | 'refused', bizId: string, reason: string) =>
        db.insertInto('sms_send_record').values(phones.map((phone) => ({
          id: newId(), tenant_id: user.tenantId, sms_code: row.sms_code, phone, status, biz_id: bizId || null, reason: reason.slice(0, 500) || null,
          create_user: user.userId, create_time: localDateTime(app.ctx.config.appTimezone),
        }))).execute();
      try {
        const bizId = await sendSms(config, phones, params);
        await record('sent', bizId, '');
        recordEvent(req, 'sms', `${config.category === SMS_LOG ? '短信（开发日志，未发送）' : '短信已发送'} ${row.sms_code} → ${phones.join(',')}：${JSON.stringify(params)}`);
        return ok({ phones: phones.length, bizId });
      } catch (e) {
        if (e instanceof SmsRefused) {
          await record('refused', '', e.message);
          throw new HttpError(400, 'sms.msg.providerFailed', { reason: e.message });
        }
        if (e instanceof SmsUnreachable) throw new HttpError(502, 'sms.msg.providerUnreachable', { reason: e.message });
        throw e;
      }
    });
  },
};

export default smsModule;
