import { useMemo, type ComponentType } from 'react';
import { eagerLazy } from '../../runtime/react/eagerLazy.js';
import { loadOnce } from '../../shared/loadOnce.js';
import { Result } from '../../runtime/react/LazyResult.js';
import { browserQuery, type QueryStore } from '../../runtime/react/context.js';
import { useTranslation } from 'react-i18next';
import { request, takeAnswer, ApiError, type Params } from '../api/client.js';
import { session } from '../auth/session.js';
import { navigateTo } from '../auth/actions.js';
import { Lazy } from '../layout/Lazy.js';
import { setTabQuery } from '../layout/tabs.js';
import { loadSections, sectionsLoaded, sectionsOf } from '../i18n.js';
import { SCREEN_DETAIL_URL } from '../../runtime/react/screenUrls.js';

interface RuntimeModule {
  RuntimeProvider: ComponentType<{ env: Record<string, unknown>; children?: React.ReactNode }>;
  ScreenPage: ComponentType<{ screenId: string }>;
}

// The runtime (src/runtime/react): provider + screen page, loaded as their own chunk.
const ctxMods = import.meta.glob<{ RuntimeProvider: RuntimeModule['RuntimeProvider'] }>('../../runtime/react/context.tsx');
const pageMods = import.meta.glob<{ ScreenPage: RuntimeModule['ScreenPage'] }>('../../runtime/react/ScreenPage.tsx');
const loadCtx = Object.values(ctxMods)[0] as (() => Promise<{ RuntimeProvider: RuntimeModule["RuntimeProvider"] }>) | undefined;
const loadPage = Object.values(pageMods)[0] as (() => Promise<{ ScreenPage: RuntimeModule["ScreenPage"] }>) | undefined;
/** The runtime's screen (provider + page), one load shared by start-up's preload and the route. */
const loadRuntime = loadCtx && loadPage
  ? loadOnce(async () => {
      const [c, p] = await Promise.all([loadCtx(), loadPage()]);
      const m: RuntimeModule = { RuntimeProvider: c.RuntimeProvider, ScreenPage: p.ScreenPage };
      function RuntimeScreen({ screenId, env }: { screenId: string; env: Record<string, unknown> }) {
        return (
          <m.RuntimeProvider env={env}>
            <m.ScreenPage screenId={screenId} />
          </m.RuntimeProvider>
        );
      }
      return { default: RuntimeScreen };
    })
  : undefined;

/**
 * The runtime's RequestFn: (method, url, {params, data, responseType}) → the R envelope's data (or the Blob). A
 * screen document comes back once the strings it names are loaded (i18n.ts loadSections), whoever asked for it.
 */
export async function runtimeRequest<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { params?: Params; data?: unknown; responseType?: 'json' | 'blob'; silent?: boolean } = {}): Promise<T> {
  try {
    const r = await request<any>({ url, method, params: options.params, data: options.data, responseType: options.responseType, silent: options.silent });
    if (url === SCREEN_DETAIL_URL && r?.data) await loadSections(sectionsOf(r.data)).catch(() => undefined);
    return (options.responseType === 'blob' ? r : r?.data) as T;
  } catch (e) {
    if (e instanceof ApiError) (e as ApiError & { data?: unknown }).data = (e.body as { data?: unknown } | null)?.data;
    throw e;
  }
}

/** The runtime's takeAnswer: an answer start-up read; a screen document only once the strings it names are here. */
export function runtimeAnswer<T = any>(url: string, params?: Params): T | undefined {
  return takeAnswer<T>(url, params, (d) => url !== SCREEN_DETAIL_URL || sectionsLoaded(sectionsOf(d)));
}

/**
 * Where lists keep their page, sort and search: the address, replaced in place at once (so the next read sees
 * it, and Back and a reload come back to it), and the screen's tab, so the tab reopens it with the same query.
 * The router is not told: a page change would redraw the whole shell (menu, tabs, page) for an address whose
 * page is the same (issue 13: page-size switch); the router reads the address again at the next navigation.
 */
export const routerQuery: QueryStore = {
  get: browserQuery.get,
  replace(query: string) {
    browserQuery.replace(query);
    setTabQuery(window.location.pathname, query);
  },
};

/** Starts loading the runtime's code (start-up does, while the screen's document is on its way). */
export function preloadRuntime(): void {
  void loadRuntime?.().catch(() => undefined);
}

function Missing() {
  const { t } = useTranslation();
  return <Result status="info" title={t('shell.notAvailable.text')} />;
}

const Runtime = loadRuntime ? eagerLazy(loadRuntime) : null;

/**
 * A menu leaf whose path is a screen document's route: the runtime's generic screen. `subPath`: the address below
 * the route (a process form's form/:processDefinitionId …).
 */
export default function ScreenRoute({ screenId, subPath }: { screenId: string; subPath?: string[] }) {
  const permission = session.use((s) => s.permission);
  const sub = subPath?.join('/') ?? '';
  const env = useMemo(
    () => ({
      request: runtimeRequest,
      takeAnswer: runtimeAnswer,
      permissions: permission,
      query: routerQuery,
      // the app's one navigate (auth/actions.ts): the router's own changes with every address, and the env must not
      navigate: navigateTo,
      subPath: sub ? sub.split('/') : undefined,
    }),
    [permission, sub],
  );
  if (!Runtime) return <Missing />;
  return (
    <div className="screen-page" data-screen={screenId}>
      <Lazy c={Runtime} props={{ screenId, env }} />
    </div>
  );
}
