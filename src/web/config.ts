/**
 * Site configuration (Saber's website.js). Defaults here; the server may override the switches at start
 * through GET /api/blade-desk/shell/config (env TENANT_MODE, CAPTCHA_MODE, SWITCH_MODE, TOKEN_TIME), which is
 * how the browser tests shorten the token time.
 */
export interface WebsiteConfig {
  /** Storage prefix: every stored item is `<key>-<name>`. */
  key: string;
  clientId: string;
  clientSecret: string;
  tenantMode: boolean;
  captchaMode: boolean;
  switchMode: boolean;
  /** The sign-in page offers guest registration (parameter account.registerUser). */
  registerMode: boolean;
  tenantId: string;
  /** Refresh threshold in seconds: the stored token is refreshed once its age reaches this. */
  tokenTime: number;
  /** Refresh check interval in ms. */
  tokenCheckInterval: number;
  tokenHeader: string;
  requestTimeout: number;
  /** Codes rejected without a toast (the caller handles them). */
  statusWhiteList: number[];
  lockPage: string;
  firstPage: { path: string; label: string };
  primaryColor: string;
  lockDelay: number;
}

export const website: WebsiteConfig = {
  key: 'saber',
  clientId: 'saber',
  clientSecret: 'saber_secret',
  tenantMode: false,
  captchaMode: false,
  switchMode: false,
  registerMode: false,
  tenantId: '000000',
  tokenTime: 3000,
  tokenCheckInterval: 10_000,
  tokenHeader: 'Blade-Auth',
  requestTimeout: 100_000,
  statusWhiteList: [],
  lockPage: '/lock',
  firstPage: { path: '/wel/index', label: 'shell.page.home' },
  primaryColor: '#409EFF',
  lockDelay: 100,
};

/** Apply the server's switches (unknown keys ignored). */
export function applyServerConfig(c: Partial<WebsiteConfig> | null | undefined): void {
  if (!c || typeof c !== 'object') return;
  for (const k of ['tenantMode', 'captchaMode', 'switchMode', 'registerMode'] as const) if (typeof c[k] === 'boolean') website[k] = c[k];
  if (typeof c.tokenTime === 'number' && c.tokenTime > 0) website.tokenTime = c.tokenTime;
  if (typeof c.tokenCheckInterval === 'number' && c.tokenCheckInterval >= 200) website.tokenCheckInterval = c.tokenCheckInterval;
  if (typeof c.tenantId === 'string' && c.tenantId) website.tenantId = c.tenantId;
}
