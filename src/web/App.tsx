import { useEffect } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { RouterProvider } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { settings } from './lib/settings.js';
import { antdThemeConfig, findTheme } from './lib/themes.js';
import { bindFeedback } from './lib/toast.js';
import { router } from './router.js';
import { setNavigator, startRefreshTimer } from './auth/actions.js';

function FeedbackBinder() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => bindFeedback(message, modal), [message, modal]);
  return null;
}

setNavigator((to) => void router.navigate(to));

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
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={antdThemeConfig(t, color)}>
      <AntApp>
        <FeedbackBinder />
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}
