import { lazy, useMemo, type ComponentType } from 'react';
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client.js';
import { session } from '../auth/session.js';
import { Lazy } from '../layout/Lazy.js';

interface RuntimeModule {
  RuntimeProvider: ComponentType<{ env: Record<string, unknown>; children?: React.ReactNode }>;
  ScreenPage: ComponentType<{ screenId: string }>;
}

// The runtime's entry (src/runtime); resolved at build time, its own chunk.
const candidates = import.meta.glob<RuntimeModule>(['../../runtime/index.ts', '../../runtime/index.tsx', '../../runtime/react/index.ts', '../../runtime/react/index.tsx']);
const loadRuntime = Object.values(candidates)[0];

function Missing() {
  const { t } = useTranslation();
  return <Result status="info" title={t('shell.notAvailable.text')} />;
}

const Runtime = loadRuntime
  ? lazy(async () => {
      const m = await loadRuntime();
      function RuntimeScreen({ screenId, env }: { screenId: string; env: Record<string, unknown> }) {
        return (
          <m.RuntimeProvider env={env}>
            <m.ScreenPage screenId={screenId} />
          </m.RuntimeProvider>
        );
      }
      return { default: RuntimeScreen };
    })
  : null;

/** A menu leaf whose path is a screen document's route: the runtime's generic screen. */
export default function ScreenRoute({ screenId }: { screenId: string }) {
  const { t, i18n } = useTranslation();
  const permission = session.use((s) => s.permission);
  const env = useMemo(
    () => ({ request, permissions: permission, t, language: i18n.language, lang: i18n.language }),
    [permission, t, i18n.language],
  );
  if (!Runtime) return <Missing />;
  return (
    <div className="screen-page" data-screen={screenId}>
      <Lazy c={Runtime} props={{ screenId, env }} />
    </div>
  );
}
