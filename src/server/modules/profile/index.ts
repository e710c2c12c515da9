/**
 * The signed-in user's own account: GET /api/blade-system/user/info, POST user/update-info (avatar, names, phone,
 * email — nothing else, whatever the body carries) and POST user/update-password (md5 passwords like the login;
 * the old one must match). Always the caller's own row (the id from the token, never a parameter).
 */
import { requireUser, type ServerModule } from '../../context.js';
import { recordEvent } from '../log/index.js';
import { badRequestText as bad } from '../../lib/errors.js';
import { notFound, ok, okStatus } from '../../lib/http.js';
import { MD5_HEX, requestParams as params, text as str } from '../../lib/params.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { localDateTime } from '../../lib/time.js';

/** The phone rule of the spec (src/web/pages/Info.tsx checks the same rule in the form, for the message on blur). */
const PHONE = /^1[3-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const profileModule: ServerModule = {
  name: 'profile',
  plugin: async (app) => {
    app.get('/api/blade-system/user/info', async (req) => {
      const u = requireUser(req);
      const row = await app.ctx.db().selectFrom('blade_user')
        .select(['id', 'tenant_id', 'account', 'name', 'real_name', 'avatar', 'email', 'phone', 'sex', 'role_id', 'dept_id', 'post_id'])
        .where('id', '=', u.userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      return ok({
        id: String(row.id), tenantId: row.tenant_id, account: row.account, name: row.name ?? '', realName: row.real_name ?? '',
        avatar: row.avatar ?? '', email: row.email ?? '', phone: row.phone ?? '', sex: row.sex ?? -1,
        roleId: row.role_id ?? '', deptId: row.dept_id ?? '', postId: row.post_id ?? '',
      });
    });

    app.post('/api/blade-system/user/update-info', async (req) => {
      const u = requireUser(req);
      const p = params(req);
      const set: Record<string, unknown> = {};
      for (const [k, col, max] of [['avatar', 'avatar', 2000], ['realName', 'real_name', 10], ['name', 'name', 20], ['phone', 'phone', 45], ['email', 'email', 45]] as const) {
        if (!(k in p)) continue;
        const v = str(p[k]);
        if (v.length > max) throw bad(req, `${k} 过长`, `${k} is too long`);
        set[col] = v;
      }
      if ('phone' in set) {
        const phone = String(set.phone);
        if (!phone) throw bad(req, '手机号码不能为空', 'Phone number cannot be empty');
        if (phone.length !== 11) throw bad(req, '手机号码长度不为11位', 'Phone number must be 11 digits');
        if (!PHONE.test(phone)) throw bad(req, '手机号码格式不正确', 'Phone number format is invalid');
      }
      if (set.email && !EMAIL.test(String(set.email))) throw bad(req, '邮箱格式不正确', 'Invalid email address');
      if (set.avatar && !/^(\/api\/|https?:\/\/)/.test(String(set.avatar))) throw bad(req, '头像地址不正确', 'Invalid avatar address');
      if (!Object.keys(set).length) return okStatus();
      await app.ctx.db().updateTable('blade_user')
        .set({ ...set, update_user: u.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
        .where('id', '=', u.userId).where('is_deleted', '=', 0).execute();
      return okStatus();
    });

    /** Passwords arrive md5-hashed like the login; the old one must match. */
    app.post('/api/blade-system/user/update-password', async (req) => {
      const u = requireUser(req);
      const p = params(req);
      const oldPassword = str(p.oldPassword), newPassword = str(p.newPassword), newPassword1 = str(p.newPassword1);
      if (!oldPassword || !newPassword || !newPassword1) throw bad(req, '请输入密码', 'Please enter the passwords');
      if (![oldPassword, newPassword, newPassword1].every((x) => MD5_HEX.test(x))) throw bad(req, '密码格式不正确', 'Invalid password format');
      if (newPassword !== newPassword1) throw bad(req, '两次新密码不一致', 'The two new passwords do not match');
      const db = app.ctx.db();
      const row = await db.selectFrom('blade_user').select(['password']).where('id', '=', u.userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      if (!(await verifyPassword(oldPassword.toLowerCase(), row.password))) throw bad(req, '原密码不正确', 'The old password is wrong');
      await db.updateTable('blade_user')
        .set({ password: await hashPassword(newPassword.toLowerCase()), update_user: u.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
        .where('id', '=', u.userId).execute();
      // whoever else holds this account's sessions (a stolen token) is signed out; this session stays
      await app.ctx.tokens.endUserSessions([u.userId], u.sid);
      recordEvent(req, 'passwordChanged', `账号 ${u.account} 修改了密码`);
      return okStatus();
    });
  },
};

export default profileModule;
