import { useEffect, type ReactNode } from 'react';
// deep imports in the start-up modules: they load with every page, and the 'antd' barrel would make every
// component reachable from start-up for the build's chunking (vite.config.ts)
import ConfigProvider from 'antd/es/config-provider';
import theme from 'antd/es/theme';
import { useTranslation } from 'react-i18next';
import { antdLocale } from './i18n.js';
import { settings } from './lib/settings.js';
import { antdThemeConfig, findTheme } from './lib/themes.js';
import { bindFeedback } from './lib/toast.js';
import { useFeedback } from '../runtime/react/feedback.js';
import { AppRouter } from './router.js';
import { startRefreshTimer } from './auth/actions.js';

/** The shell's toasts and confirms (lib/toast.ts): antd's hooks, loaded with the first one. */
function FeedbackBinder() {
  const [feedback, holder] = useFeedback();
  useEffect(() => bindFeedback(feedback), [feedback]);
  return holder;
}

/**
 * The page's base text (colour, size, line height, font) from the theme, as antd's App component gives it; not
 * antd's App itself, which brings the message, notification and modal code with it (issue 13).
 */
function AppRoot({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
}

export function App() {
  const { i18n } = useTranslation();
  const themeName = settings.use((s) => s.themeName);
  const color = settings.use((s) => s.color);
  const t = findTheme(themeName);
  useEffect(() => {
    startRefreshTimer();
  }, []);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = t.name;
    const vars: Record<string, string> = {
      '--sider-bg': t.siderBg, '--sider-text': t.siderText, '--logo-bg': t.logoBg, '--logo-text': t.logoText,
      // selected side-menu entry: white on the dark menus' strong selected background, the menu text on the light ones' pale one
      '--sider-selected-text': t.siderDark ? '#ffffff' : t.siderText,
      '--header-bg': t.headerBg, '--header-text': t.headerText, '--tabs-bg': t.tabsBg, '--page-bg': t.pageBg, '--primary': color,
    };
    for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v);
    root.style.colorScheme = t.dark ? 'dark' : 'light';
  }, [t, color]);
  return (
    <ConfigProvider locale={antdLocale(i18n.language)} theme={antdThemeConfig(t, color)}>
      <AppRoot>
        <FeedbackBinder />
        <AppRouter />
      </AppRoot>
    </ConfigProvider>
  );
}
