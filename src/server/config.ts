/** Server configuration, from the environment (12-factor). Every value has a safe default for `npm start`. */
import path from 'node:path';

export interface ServerConfig {
  /** Listen port (default 8080). */
  port: number;
  /** Listen address (default 0.0.0.0). */
  host: string;
  /** Data directory: embedded database (pgdata), uploads (upload). Default ./data. */
  dataDir: string;
  /** PostgreSQL connection string; when set, used instead of the embedded PGlite. */
  databaseUrl?: string;
  /** JWT signing secret; when absent a random key is generated once per install and kept in the database. */
  jwtSecret?: string;
  /** SM2 private key (64 hex) for SpringBlade clients' encrypted passwords; generated per install when unset. */
  sm2PrivateKey?: string;
  /** AES-256 key (64 hex) sealing x-secret fields; when unset a key is generated in DATA_DIR/keys (lib/secret-box.ts). */
  configSecretKey?: string;
  /** Also answer the `blade-*` service paths without the `/api` prefix (Saber built with an empty API base). */
  apiRootAlias?: boolean;
  /** Extra directories of screen documents (besides ./schemas). */
  schemaDirs: string[];
  /** Captcha required on login (CAPTCHA_MODE=on|true|1) or not ('off', default). */
  captchaMode: 'on' | 'off';
  /** Time zone of stored local timestamps and serial numbers (default Asia/Shanghai). */
  appTimezone: string;
  /** Project root (schemas/, locales/, dist/web). */
  rootDir: string;
  /** Log requests (default: off in tests). */
  logger: boolean;
  /** A read slower than this (ms) goes into the API log too (LOG_SLOW_MS, default 1000); changes always do. */
  logSlowMs: number;
  /**
   * Which reverse proxies to believe about the client address (Fastify trustProxy; TRUST_PROXY): `true`, a
   * number of hops, or comma-separated addresses/CIDRs. Default false: the peer address is the client's.
   */
  trustProxy: boolean | number | string;
}

/** TRUST_PROXY: "true" → true, digits → hop count, other text → addresses/CIDRs, empty/"false" → false. */
export function parseTrustProxy(v: string | undefined): boolean | number | string {
  const s = (v ?? '').trim();
  if (!s || s.toLowerCase() === 'false') return false;
  if (s.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(s)) return Number(s);
  return s;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const rootDir = overrides.rootDir ?? process.cwd();
  const tz = env.APP_TIMEZONE || 'Asia/Shanghai';
  if (!/^[A-Za-z0-9_+\-/]+$/.test(tz)) throw new Error(`APP_TIMEZONE: invalid time zone name ${tz}`);
  const cfg: ServerConfig = {
    port: Number(env.PORT || 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(rootDir, env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    sm2PrivateKey: env.SM2_PRIVATE_KEY || undefined,
    configSecretKey: env.CONFIG_SECRET_KEY || undefined,
    apiRootAlias: ['true', '1', 'yes', 'on'].includes((env.API_ROOT_ALIAS ?? '').toLowerCase()),
    schemaDirs: (env.SCHEMA_DIRS || '').split(',').map((s) => s.trim()).filter(Boolean).map((d) => path.resolve(rootDir, d)),
    captchaMode: ['on', 'true', '1', 'yes'].includes((env.CAPTCHA_MODE ?? '').toLowerCase()) ? 'on' : 'off',
    appTimezone: tz,
    rootDir,
    logger: env.LOG_REQUESTS === '1',
    logSlowMs: env.LOG_SLOW_MS !== undefined && env.LOG_SLOW_MS !== '' && Number(env.LOG_SLOW_MS) >= 0 ? Number(env.LOG_SLOW_MS) : 1000,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
  if (cfg.jwtSecret && cfg.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return { ...cfg, ...overrides };
}
