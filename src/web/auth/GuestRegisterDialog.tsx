import { useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client.js';
import { alertDialog, toast } from '../lib/toast.js';

export interface GuestRegisterProps {
  tenantId: string;
  /** The social account being bound (third-party register), else empty. */
  oauthId?: string;
  /** Hint above the form (why the dialog is shown). */
  hint: string;
  /** A guest from the sign-in page may close the dialog; the third-party register may not. */
  onCancel?: () => void;
  /** After the "submitted, wait for the administrator" alert. */
  onDone: () => void;
}

/**
 * Account registration (register-guest): tenant, name, account, password and confirmation, checked in the spec's
 * order as warnings; the account then waits, without roles, until an administrator approves it. Shared by the
 * sign-in page's "register" and the third-party register after a social sign-in.
 */
export function GuestRegisterDialog({ tenantId, oauthId = '', hint, onCancel, onDone }: GuestRegisterProps) {
  const { t } = useTranslation();
  const [v, setV] = useState({ tenantId, name: '', account: '', password: '', password2: '' });
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!v.tenantId.trim()) return toast.warning(t('shell.register.tenantFirst'));
    if (!v.account.trim()) return toast.warning(t('shell.register.accountFirst'));
    if (!v.password || !v.password2) return toast.warning(t('shell.register.passwordFirst'));
    if (v.password !== v.password2) return toast.warning(t('shell.register.mismatch'));
    setBusy(true);
    try {
      const { md5 } = await import('../../shared/md5.js');
      await request({
        url: '/api/blade-system/user/register-guest',
        method: 'POST',
        silent: true,
        params: { tenantId: v.tenantId.trim(), name: v.name.trim(), account: v.account.trim(), password: md5(v.password), oauthId },
      });
      await alertDialog({ title: t('shell.register.successTitle'), content: t('shell.register.success'), type: 'success' });
      onDone();
    } catch (e) {
      toast.error((e as Error).message || t('shell.register.failed'));
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof typeof v) => ({ value: v[key], onChange: (e: { target: { value: string } }) => setV({ ...v, [key]: e.target.value }) });
  return (
    <Modal
      open
      title={t('shell.register.title')}
      closable={!!onCancel}
      maskClosable={false}
      onCancel={onCancel}
      onOk={submit}
      confirmLoading={busy}
      okText={t('shell.register.ok')}
      cancelText={t('common.action.cancel')}
      cancelButtonProps={onCancel ? undefined : { style: { display: 'none' } }}
      data-testid="register-dialog"
    >
      <Alert type="info" showIcon message={hint} style={{ marginBottom: 12 }} />
      <Form layout="vertical">
        <Form.Item label={t('shell.register.tenantId')}><Input {...field('tenantId')} data-testid="register-tenant" /></Form.Item>
        <Form.Item label={t('shell.register.name')}><Input {...field('name')} data-testid="register-name" /></Form.Item>
        <Form.Item label={t('shell.register.account')}><Input {...field('account')} data-testid="register-account" autoComplete="off" /></Form.Item>
        <Form.Item label={t('shell.register.password')}><Input.Password {...field('password')} data-testid="register-password" autoComplete="new-password" /></Form.Item>
        <Form.Item label={t('shell.register.password2')}><Input.Password {...field('password2')} data-testid="register-password2" autoComplete="new-password" /></Form.Item>
      </Form>
    </Modal>
  );
}
