import antdTheme from 'antd/es/theme';
import type { ThemeConfig } from 'antd';

/** The 11 themes of the spec. Each sets the chrome (side menu, header, tabs, page) and the antd algorithm. */
export interface ShellTheme {
  name: string;
  dark: boolean;
  /** side menu: background, text, selected background ('' = the primary colour), menu theme */
  siderBg: string;
  siderText: string;
  siderSelectedBg: string;
  siderDark: boolean;
  logoBg: string;
  logoText: string;
  headerBg: string;
  headerText: string;
  tabsBg: string;
  pageBg: string;
  /** primary colour suggestion when the user has not picked one */
  primary?: string;
  radius?: number;
}

export const THEMES: ShellTheme[] = [
  { name: 'default', dark: false, siderBg: '#20222a', siderText: '#a6a6a6', siderSelectedBg: '', siderDark: true, logoBg: '#20222a', logoText: '#ffffff', headerBg: '#ffffff', headerText: '#333333', tabsBg: '#ffffff', pageBg: '#f0f2f5' },
  { name: 'white', dark: false, siderBg: '#ffffff', siderText: '#333333', siderSelectedBg: '#e6f4ff', siderDark: false, logoBg: '#ffffff', logoText: '#333333', headerBg: '#ffffff', headerText: '#333333', tabsBg: '#ffffff', pageBg: '#ffffff' },
  { name: 'dark', dark: true, siderBg: '#0f0f10', siderText: '#b8b8b8', siderSelectedBg: '#1f3a5f', siderDark: true, logoBg: '#0f0f10', logoText: '#e8e8e8', headerBg: '#141414', headerText: '#e8e8e8', tabsBg: '#1a1a1a', pageBg: '#000000' },
  { name: 'star', dark: false, siderBg: 'linear-gradient(180deg, #3a1c71 0%, #d76d77 60%, #ffaf7b 100%)', siderText: '#ffffff', siderSelectedBg: 'rgba(255,255,255,0.25)', siderDark: true, logoBg: '#3a1c71', logoText: '#ffffff', headerBg: 'linear-gradient(90deg, #3a1c71 0%, #d76d77 100%)', headerText: '#ffffff', tabsBg: '#fff7f2', pageBg: '#fdf1ea', primary: '#d76d77' },
  { name: 'bule', dark: false, siderBg: '#0a3a78', siderText: '#d6e6ff', siderSelectedBg: '#1e6fd9', siderDark: true, logoBg: '#072c5c', logoText: '#ffffff', headerBg: '#1e6fd9', headerText: '#ffffff', tabsBg: '#eef5ff', pageBg: '#e8f1fc', primary: '#1e6fd9' },
  { name: 'iview', dark: false, siderBg: '#515a6e', siderText: '#e8eaec', siderSelectedBg: '#2d8cf0', siderDark: true, logoBg: '#464c5b', logoText: '#ffffff', headerBg: '#ffffff', headerText: '#515a6e', tabsBg: '#f5f7f9', pageBg: '#f5f7f9', primary: '#2d8cf0' },
  { name: 'vip', dark: false, siderBg: '#1d1d1d', siderText: '#d9c08c', siderSelectedBg: '#3b3222', siderDark: true, logoBg: '#111111', logoText: '#f0c36d', headerBg: '#262626', headerText: '#f0c36d', tabsBg: '#fbf6ea', pageBg: '#f7f1e3', primary: '#c89b40' },
  { name: 'cool', dark: false, siderBg: 'linear-gradient(180deg, #134e5e 0%, #71b280 100%)', siderText: '#e6fff4', siderSelectedBg: 'rgba(255,255,255,0.22)', siderDark: true, logoBg: '#134e5e', logoText: '#ffffff', headerBg: '#ffffff', headerText: '#134e5e', tabsBg: '#eef8f3', pageBg: '#e9f5ef', primary: '#2e8b72' },
  { name: 'd2', dark: false, siderBg: '#ebf1f6', siderText: '#2f4050', siderSelectedBg: '#d2e1ee', siderDark: false, logoBg: '#ebf1f6', logoText: '#2f4050', headerBg: '#ebf1f6', headerText: '#2f4050', tabsBg: '#ebf1f6', pageBg: '#f8fafc', primary: '#2f74c0', radius: 2 },
  { name: 'hey', dark: false, siderBg: '#ffffff', siderText: '#5c4b51', siderSelectedBg: '#ffe4ea', siderDark: false, logoBg: '#ff5c8a', logoText: '#ffffff', headerBg: '#ff5c8a', headerText: '#ffffff', tabsBg: '#fff0f4', pageBg: '#fff7f9', primary: '#ff5c8a', radius: 12 },
  { name: 'lte', dark: false, siderBg: '#222d32', siderText: '#b8c7ce', siderSelectedBg: '#1e282c', siderDark: true, logoBg: '#367fa9', logoText: '#ffffff', headerBg: '#3c8dbc', headerText: '#ffffff', tabsBg: '#ecf0f5', pageBg: '#ecf0f5', primary: '#3c8dbc', radius: 0 },
];

export function findTheme(name: string | undefined): ShellTheme {
  return THEMES.find((t) => t.name === name) ?? THEMES[0];
}

/** antd ThemeConfig for a shell theme and a primary colour. */
export function antdThemeConfig(t: ShellTheme, primary: string): ThemeConfig {
  const solid = (c: string) => (c.startsWith('linear') ? 'transparent' : c);
  return {
    algorithm: t.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: primary, borderRadius: t.radius ?? 6, colorInfo: primary },
    components: {
      Layout: { siderBg: solid(t.siderBg), headerBg: solid(t.headerBg), bodyBg: t.pageBg, headerPadding: '0 12px', headerHeight: 56 },
      Menu: {
        darkItemBg: 'transparent', darkSubMenuItemBg: 'rgba(0,0,0,0.15)', darkItemColor: t.siderText, darkItemSelectedBg: t.siderSelectedBg || primary,
        itemBg: 'transparent', subMenuItemBg: 'transparent', itemColor: t.siderText, itemSelectedBg: t.siderSelectedBg || primary,
      },
    },
  };
}

/** The colour pickers' presets (top bar and theme dialog). */
export const PRESET_COLORS = ['#409EFF', '#1890ff', '#722ed1', '#eb2f96', '#f5222d', '#fa541c', '#fa8c16', '#13c2c2', '#52c41a', '#2f54eb'];
