import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { AutoComplete, Avatar, Badge, Button, Dropdown, Menu, Popover, Spin, Tooltip } from 'antd';
import {
  BellOutlined, BugOutlined, CompressOutlined, ExpandOutlined, GlobalOutlined, LockOutlined, MenuFoldOutlined,
  MenuUnfoldOutlined, SearchOutlined, SkinOutlined, UserOutlined, DownOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { website } from '../config.js';
import { getData } from '../api/client.js';
import { session } from '../auth/session.js';
import { loadMenu, logout, TOP_MENU_URL } from '../auth/actions.js';
import { setTopMenuId } from '../auth/session.js';
import { changeLanguage, type Lang } from '../i18n.js';
import { errorLogStore } from '../lib/errorLog.js';
import { filterMenu, menuLabel, opensNewWindow, routeOf, searchLeaves } from '../lib/menu.js';
import { settings } from '../lib/settings.js';
import { confirmDialog } from '../lib/toast.js';
import { ui } from './ui.js';
import { useNoticeInbox } from './noticeInboxData.js';
import { ColorChoice } from './ColorChoice.js';

// The dialogs and the bell's popover content: one chunk, loaded when one is first opened.
const loadDialogs = () => import('./TopBarDialogs.js');
const ErrorLogDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ErrorLogDialog })));
const LockDialog = lazy(() => loadDialogs().then((m) => ({ default: m.LockDialog })));
const ThemeDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ThemeDialog })));
const SwitchDialog = lazy(() => loadDialogs().then((m) => ({ default: m.SwitchDialog })));
const NoticeTabs = lazy(() => loadDialogs().then((m) => ({ default: m.NoticeTabs })));

/** The bell with the unread count; its popover's tabs load when it is first opened. */
function NoticePopover({ mobile = false }: { mobile?: boolean }) {
  const { t } = useTranslation();
  const { data, refresh } = useNoticeInbox(1);
  const [opened, setOpened] = useState(false);
  const unread = data?.unread ?? 0;
  const spin = <Spin size="small" style={{ display: 'block', margin: 24 }} />;
  // (a popover without content would not open: a spinner stands in until the first opening loads the tabs)
  const content = opened ? (
    <Suspense fallback={spin}>
      <NoticeTabs unread={unread} onChange={refresh} />
    </Suspense>
  ) : (
    spin
  );
  return (
    // under the bell, right-aligned; on a phone centred under it, where antd shifts it sideways into the window
    <Popover content={content} trigger="click" placement={mobile ? 'bottom' : 'bottomRight'} onOpenChange={(o) => o && setOpened(true)}>
      <Tooltip title={t('shell.top.notice')}>
        <Badge count={unread} size="small" offset={[-6, 6]} data-testid="notice-badge">
          <Button type="text" className="tb-btn" data-testid="tb-notice" icon={<BellOutlined />} />
        </Badge>
      </Tooltip>
    </Popover>
  );
}

interface TopMenu {
  id: string;
  name: string;
  nameEn?: string;
  code?: string;
  path?: string;
}

/** Top bar: collapse, top menu, search, colour, error log, lock, theme, notice, language, full screen, user. */
export function TopBar({ mobile, collapsed, onToggleMenu }: { mobile: boolean; collapsed: boolean; onToggleMenu: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const color = settings.use((s) => s.color);
  const logs = errorLogStore.use((s) => s.logs);
  const userInfo = session.use((s) => s.userInfo);
  const menu = session.use((s) => s.menu);
  const roles = session.use((s) => s.roles);
  const topMenuId = session.use((s) => s.topMenuId);
  const [topMenus, setTopMenus] = useState<TopMenu[]>([]);
  const [search, setSearch] = useState('');
  const [dialog, openDialog] = useState<'' | 'log' | 'lock' | 'theme' | 'switch'>('');
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const setDialog = (d: typeof dialog) => {
    if (d && !opened.has(d)) setOpened(new Set([...opened, d]));
    openDialog(d);
  };
  const [full, setFull] = useState(!!document.fullscreenElement);

  useEffect(() => {
    getData<TopMenu[]>(TOP_MENU_URL).then((d) => setTopMenus(Array.isArray(d) ? d : []), () => undefined);
    const onFs = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onFs);
    return () => document.removeEventListener('fullscreenchange', onFs);
  }, []);

  const options = useMemo(
    () =>
      searchLeaves(filterMenu(menu ?? [], roles), search, i18n.language).map((n) => ({
        value: n.path,
        label: <span className="ac-option">{menuLabel(n, i18n.language)}</span>,
        node: n,
      })),
    [menu, roles, search, i18n.language],
  );

  const switchTop = async (id: string) => {
    setTopMenuId(id);
    await loadMenu(id).catch(() => undefined);
    navigate('/wel/index');
  };

  const toggleFull = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  // phones have no room for the full-screen button: the user menu offers it (the colour is in the theme dialog)
  const userItems = [
    { key: 'dashboard', label: t('shell.user.dashboard') },
    { key: 'info', label: t('shell.user.info') },
    ...(mobile && document.fullscreenEnabled ? [{ key: 'fullscreen', label: t(full ? 'shell.top.exitFullscreen' : 'shell.top.fullscreen') }] : []),
    ...(website.switchMode ? [{ key: 'switch', label: t('shell.user.switch') }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('shell.user.logout'), danger: true },
  ];
  const onUser = async (key: string) => {
    if (key === 'dashboard') navigate('/wel/dashboard');
    else if (key === 'info') navigate('/info/index');
    else if (key === 'switch') setDialog('switch');
    else if (key === 'fullscreen') toggleFull();
    else if (key === 'logout') {
      if (await confirmDialog({ title: t('shell.user.logoutConfirm'), okText: t('common.action.ok'), cancelText: t('common.action.cancel') })) await logout();
    }
  };

  const name = userInfo?.real_name || userInfo?.nick_name || userInfo?.account || userInfo?.user_name || '';
  return (
    <div className="top-bar" data-testid="top-bar">
      <div className="top-bar-left">
        <Button
          type="text"
          className="tb-btn"
          data-testid="tb-collapse"
          aria-label={t('shell.top.collapse')}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleMenu}
        />
        {!mobile && (
          <Menu
            className="top-menu"
            mode="horizontal"
            theme="light"
            selectedKeys={[topMenuId || 'home']}
            data-testid="top-menu"
            onClick={({ key }) => void switchTop(key === 'home' ? '' : String(key))}
            items={[{ key: 'home', label: t('shell.top.home') }, ...topMenus.map((m) => ({ key: m.id, label: menuLabel({ name: m.name, nameEn: m.nameEn }, i18n.language) }))]}
          />
        )}
      </div>
      <div className="top-bar-right">
        {!mobile && (
          <AutoComplete
            className="tb-search"
            data-testid="tb-autocomplete"
            value={search}
            options={options}
            onSearch={setSearch}
            onChange={(v) => setSearch(String(v ?? ''))}
            onSelect={(_v, opt) => {
              const n = (opt as { node: Parameters<typeof routeOf>[0] }).node;
              setSearch('');
              if (opensNewWindow(n)) window.open(n.path, '_blank');
              else navigate(routeOf(n));
            }}
            placeholder={t('shell.search.placeholder')}
            style={{ width: 180 }}
          />
        )}
        <Tooltip title={t('shell.top.search')}>
          <Button type="text" className="tb-btn" data-testid="tb-search" icon={<SearchOutlined />} onClick={() => ui.set({ searchOpen: true })} />
        </Tooltip>
        {!mobile && <ColorChoice color={color} title={t('shell.top.color')} />}
        <Tooltip title={t('shell.top.errorLog')}>
          <Badge count={logs.length} overflowCount={99} size="small" offset={[-4, 4]} data-testid="tb-log-badge">
            <Button type="text" className="tb-btn" data-testid="tb-log" icon={<BugOutlined />} onClick={() => setDialog('log')} />
          </Badge>
        </Tooltip>
        <Tooltip title={t('shell.top.lock')}>
          <Button type="text" className="tb-btn" data-testid="tb-lock" icon={<LockOutlined />} onClick={() => setDialog('lock')} />
        </Tooltip>
        <Tooltip title={t('shell.top.theme')}>
          <Button type="text" className="tb-btn" data-testid="tb-theme" icon={<SkinOutlined />} onClick={() => setDialog('theme')} />
        </Tooltip>
        <NoticePopover mobile={mobile} />
        <Dropdown
          menu={{
            items: [
              { key: 'zh', label: '中文' },
              { key: 'en', label: 'English' },
            ],
            selectable: true,
            selectedKeys: [i18n.language],
            onClick: ({ key }) => void changeLanguage(key as Lang),
          }}
        >
          <Button type="text" className="tb-btn" data-testid="tb-lang" icon={<GlobalOutlined />} aria-label={t('shell.top.language')} />
        </Dropdown>
        {!mobile && (
          <Tooltip title={t(full ? 'shell.top.exitFullscreen' : 'shell.top.fullscreen')}>
            <Button type="text" className="tb-btn" data-testid="tb-full" icon={full ? <CompressOutlined /> : <ExpandOutlined />} onClick={toggleFull} />
          </Tooltip>
        )}
        <Dropdown menu={{ items: userItems, onClick: ({ key }) => void onUser(key) }} trigger={['click']}>
          <span className="tb-user" data-testid="tb-user">
            <Avatar size="small" src={userInfo?.avatar || undefined} icon={<UserOutlined />} />
            {!mobile && <span className="tb-user-name">{name}</span>}
            <DownOutlined style={{ fontSize: 10 }} />
          </span>
        </Dropdown>
      </div>
      {/* each dialog is mounted from its first opening on (then it opens and closes as before, animations included) */}
      <Suspense fallback={null}>
        {opened.has('log') && <ErrorLogDialog open={dialog === 'log'} onClose={() => setDialog('')} />}
        {opened.has('lock') && <LockDialog open={dialog === 'lock'} onClose={() => setDialog('')} />}
        {opened.has('theme') && <ThemeDialog open={dialog === 'theme'} onClose={() => setDialog('')} />}
        {website.switchMode && opened.has('switch') && <SwitchDialog open={dialog === 'switch'} onClose={() => setDialog('')} />}
      </Suspense>
    </div>
  );
}
