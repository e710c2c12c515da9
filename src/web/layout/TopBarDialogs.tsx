/**
 * The top bar's dialogs and the bell's popover content, in their own chunk: loaded when one is first opened, so a
 * screen's first load carries none of them (modals, tabs, lists, tables, the colour picker of the theme dialog).
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, ColorPicker, Empty, Form, Input, List, Modal, Pagination, Select, Space, Table, Tabs } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { getData, request } from '../api/client.js';
import { session, setLock } from '../auth/session.js';
import { localLogout, refreshToken, loadSessionData } from '../auth/actions.js';
import { clearErrorLogs, errorLogStore } from '../lib/errorLog.js';
import { settings, setColor, setThemeName } from '../lib/settings.js';
import { PRESET_COLORS, THEMES } from '../lib/themes.js';
import { confirmDialog, toast } from '../lib/toast.js';
import { website } from '../config.js';
import { GuestRegisterDialog } from '../auth/GuestRegisterDialog.js';
import { NoticeInbox } from './NoticeInbox.js';

/** Full-screen error-log dialog: type, address, content, stack, time; upload and clear, both confirmed. */
export function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logs = errorLogStore.use((s) => s.logs);
  const upload = async () => {
    if (!(await confirmDialog({ title: t('shell.log.uploadConfirm'), okText: t('common.action.ok'), cancelText: t('common.action.cancel') }))) return;
    try {
      await request({ url: '/api/blade-desk/shell/send-logs', method: 'POST', data: logs });
      toast.success(t('shell.log.sent'));
    } catch {
      /* toast by the client */
    }
  };
  const clear = async () => {
    if (!(await confirmDialog({ title: t('shell.log.clearConfirm'), okText: t('common.action.ok'), cancelText: t('common.action.cancel'), danger: true }))) return;
    clearErrorLogs();
    toast.success(t('shell.log.cleared'));
  };
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('shell.log.title')}
      width="100%"
      className="fullscreen-modal"
      style={{ top: 0, maxWidth: '100vw', paddingBottom: 0 }}
      footer={null}
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={upload} disabled={!logs.length} data-testid="log-upload">{t('shell.log.upload')}</Button>
        <Button danger onClick={clear} disabled={!logs.length} data-testid="log-clear">{t('shell.log.clear')}</Button>
      </Space>
      <Table
        size="small"
        rowKey={(r) => `${r.time}-${r.message}-${r.stack.length}`}
        dataSource={logs}
        pagination={{ pageSize: 10 }}
        scroll={{ x: 900 }}
        data-testid="log-table"
        columns={[
          { title: t('shell.log.type'), dataIndex: 'type', width: 80 },
          { title: t('shell.log.url'), dataIndex: 'url', width: 220, ellipsis: true },
          { title: t('shell.log.message'), dataIndex: 'message', width: 260 },
          { title: t('shell.log.stack'), dataIndex: 'stack', render: (s: string) => <pre className="log-stack">{s}</pre> },
          { title: t('shell.log.time'), dataIndex: 'time', width: 170 },
        ]}
      />
    </Modal>
  );
}

/** Lock dialog: set a lock password (required), then /lock. */
export function LockDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ passwd: string }>();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('shell.lock.title')}
      okText={t('shell.lock.ok')}
      cancelText={t('common.action.cancel')}
      destroyOnHidden
      onOk={async () => {
        let passwd: string;
        try {
          ({ passwd } = await form.validateFields());
        } catch {
          return; // the form shows the message; not an application error
        }
        setLock(passwd);
        onClose();
        navigate(website.lockPage);
      }}
      okButtonProps={{ 'data-testid': 'lock-ok' } as never}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="passwd" label={t('shell.lock.password')} rules={[{ required: true, message: t('shell.lock.required') }]} validateTrigger="onBlur">
          <Input.Password data-testid="lock-password" autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Theme dialog with the 11 themes, and the primary colour (the top bar's colour picker is hidden on phones). */
export function ThemeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const current = settings.use((s) => s.themeName);
  const color = settings.use((s) => s.color);
  return (
    <Modal open={open} onCancel={onClose} title={t('shell.theme.title')} footer={null} width={640}>
      <div className="theme-color" data-testid="theme-color">
        <span>{t('shell.top.color')}</span>
        <ColorPicker
          size="small"
          value={color}
          disabledAlpha
          showText
          presets={[{ label: t('shell.top.colorPresets'), colors: PRESET_COLORS }]}
          onChangeComplete={(c) => setColor(c.toHexString().toUpperCase())}
        />
      </div>
      <div className="theme-grid">
        {THEMES.map((th) => (
          <button
            key={th.name}
            type="button"
            className={`theme-card${current === th.name ? ' active' : ''}`}
            data-theme-name={th.name}
            onClick={() => setThemeName(th.name)}
          >
            <span className="theme-preview">
              <span className="tp-side" style={{ background: th.siderBg }} />
              <span className="tp-main">
                <span className="tp-head" style={{ background: th.headerBg }} />
                <span className="tp-body" style={{ background: th.pageBg }} />
              </span>
            </span>
            <span className="theme-name">
              {current === th.name && <CheckOutlined />} {t(`shell.theme.${th.name}`)}
            </span>
          </button>
        ))}
      </div>
    </Modal>
  );
}

interface NoticeItem {
  id: number;
  title: string;
  text: string;
  time: string;
}

/** Sample data for the mail and message tabs (the spec: sample data and paging); the notice tab is real (NoticeInbox). */
function sampleNotices(kind: 'mail' | 'message', t: (k: string, o?: Record<string, unknown>) => string): NoticeItem[] {
  const n = kind === 'mail' ? 12 : 7;
  const base = new Date(2026, 10, 21, 9, 0, 0).getTime();
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(base - i * 3_600_000 * 5);
    const p = (x: number) => String(x).padStart(2, '0');
    return {
      id: i + 1,
      title: t(`shell.notice.sample.${kind}`, { n: i + 1 }),
      text: t(`shell.notice.sample.${kind}Text`, { n: i + 1 }),
      time: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`,
    };
  });
}

function NoticeList({ kind }: { kind: 'mail' | 'message' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const all = useMemo(() => sampleNotices(kind, t), [kind, t]);
  const size = 5;
  const rows = all.slice((page - 1) * size, page * size);
  return (
    <div>
      <div className="notice-scroll" style={{ height: 300, overflowY: 'auto' }}>
        {rows.length ? (
          <List
            size="small"
            dataSource={rows}
            renderItem={(r) => (
              <List.Item key={r.id}>
                <List.Item.Meta title={r.title} description={<><div>{r.text}</div><div className="notice-time">{r.time}</div></>} />
              </List.Item>
            )}
          />
        ) : (
          <Empty />
        )}
      </div>
      <Pagination size="small" simple current={page} pageSize={size} total={all.length} onChange={setPage} style={{ marginTop: 8, textAlign: 'center' }} />
    </div>
  );
}

/** The bell's popover content (loaded when it first opens): mail and messages (the spec's samples) and the real notices. */
export function NoticeTabs({ unread, onChange }: { unread: number; onChange: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="notice-popover" data-testid="notice-popover">
      <Tabs
        size="small"
        items={[
          { key: 'mail', label: t('shell.notice.mail'), children: <NoticeList kind="mail" /> },
          { key: 'message', label: t('shell.notice.message'), children: <NoticeList kind="message" /> },
          { key: 'notice', label: unread ? `${t('shell.notice.notice')} (${unread})` : t('shell.notice.notice'), children: <NoticeInbox onChange={onChange} /> },
        ]}
      />
    </div>
  );
}

interface Option {
  id: string;
  deptName?: string;
  roleName?: string;
  title?: string;
  name?: string;
}

/** Switch department / role: required selects loaded with userId; refreshes the token; back to /. */
export function SwitchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userInfo = session.use((s) => s.userInfo);
  const [form] = Form.useForm<{ deptId: string; roleId: string }>();
  const [depts, setDepts] = useState<Option[]>([]);
  const [roles, setRoles] = useState<Option[]>([]);
  useEffect(() => {
    if (!open || !userInfo) return;
    const userId = userInfo.user_id;
    getData<Option[]>('/api/blade-system/dept/select', { userId }).then((d) => setDepts(d ?? []), () => undefined);
    getData<Option[]>('/api/blade-system/role/select', { userId }).then((d) => setRoles(d ?? []), () => undefined);
    form.setFieldsValue({ deptId: String(userInfo.dept_id ?? '').split(',')[0] || undefined, roleId: String(userInfo.role_id ?? '').split(',')[0] || undefined });
  }, [open, userInfo, form]);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('shell.switch.title')}
      okText={t('shell.switch.ok')}
      cancelText={t('common.action.cancel')}
      destroyOnHidden
      onOk={async () => {
        let v: { deptId: string; roleId: string };
        try {
          v = await form.validateFields();
        } catch {
          return; // the form shows the messages; not an application error
        }
        try {
          await refreshToken({ 'Dept-Id': v.deptId, 'Role-Id': v.roleId });
        } catch {
          return; // the api client has shown the server's message; the dialog stays open
        }
        await loadSessionData().catch(() => undefined);
        onClose();
        navigate('/');
      }}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="deptId" label={t('shell.switch.dept')} rules={[{ required: true, message: t('shell.switch.deptRequired') }]}>
          <Select options={depts.map((d) => ({ value: String(d.id), label: d.deptName ?? d.title ?? d.name }))} />
        </Form.Item>
        <Form.Item name="roleId" label={t('shell.switch.role')} rules={[{ required: true, message: t('shell.switch.roleRequired') }]}>
          <Select options={roles.map((d) => ({ value: String(d.id), label: d.roleName ?? d.title ?? d.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Third-party register dialog (the shell shows it when needsRegister holds: a social login without a user yet). */
export function RegisterDialog() {
  const { t } = useTranslation();
  const userInfo = session.use((s) => s.userInfo);
  return <GuestRegisterDialog tenantId={userInfo?.tenant_id ?? website.tenantId} oauthId={userInfo?.oauth_id ?? ''} hint={t('shell.register.hint')} onDone={localLogout} />;
}
