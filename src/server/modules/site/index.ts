/**
 * Site switches for the web app: GET /api/blade-desk/shell/config — public (app.ts PUBLIC_PATHS), the login page
 * reads them before a token exists. From the environment and the server config; registerMode from the parameter
 * account.registerUser (the sign-in page then offers guest registration, as register-guest then accepts it).
 */
import type { ServerModule } from '../../context.js';
import { ok } from '../../lib/http.js';
import { paramFlag } from '../param/index.js';

function envFlag(v: string | undefined): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  return ['1', 'true', 'on', 'yes'].includes(v.toLowerCase());
}

const siteModule: ServerModule = {
  name: 'site',
  plugin: async (app) => {
    app.get('/api/blade-desk/shell/config', async () => {
      const registerMode = await paramFlag(app.ctx.db(), 'account.registerUser');
      const env = process.env;
      const tokenTime = Number(env.TOKEN_TIME);
      const check = Number(env.TOKEN_CHECK_MS);
      return ok({
        tenantMode: envFlag(env.TENANT_MODE) ?? false,
        captchaMode: app.ctx.config.captchaMode === 'on',
        switchMode: envFlag(env.SWITCH_MODE) ?? false,
        registerMode,
        tenantId: '000000',
        ...(tokenTime > 0 ? { tokenTime } : {}),
        ...(check > 0 ? { tokenCheckInterval: check } : {}),
      });
    });
  },
};

export default siteModule;
