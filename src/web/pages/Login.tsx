import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Form, Input } from 'antd';
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { website } from '../config.js';
import { login } from '../auth/actions.js';
import { afterLoginTarget } from '../layout/Root.js';
import { request } from '../api/client.js';
import { LoginLanguage } from './LoginLanguage.js';

// a guest's request for an account: its dialog loads when the link is used
const GuestRegisterDialog = lazy(() => import('../auth/GuestRegisterDialog.js').then((m) => ({ default: m.GuestRegisterDialog })));

interface Captcha {
  key: string;
  image: string;
}

/**
 * Login: tenant (tenant mode only), account, password (md5 before the call), captcha (captcha mode only); with
 * registerMode (parameter account.registerUser) a guest may ask for an account, which waits for approval.
 */
export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [form] = Form.useForm();
  const [registering, setRegistering] = useState(false);

  const loadCaptcha = () =>
    request<Captcha & { data?: Captcha }>({ url: '/api/blade-auth/oauth/captcha', withToken: false })
      .then((r) => setCaptcha(r.data ?? r))
      .catch(() => undefined);
  useEffect(() => {
    if (website.captchaMode) void loadCaptcha();
  }, []);

  const onFinish = async (v: { tenantId?: string; username: string; password: string; code?: string }) => {
    setBusy(true);
    try {
      await login({ tenantId: v.tenantId, username: v.username, password: v.password, captchaKey: captcha?.key, captchaCode: v.code });
      navigate(afterLoginTarget(`?${params.toString()}`), { replace: true });
    } catch {
      // the error toast is shown by the client / login(); nothing is stored
      if (website.captchaMode) void loadCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-page" data-testid="login-page">
      <div className="login-lang">
        <LoginLanguage />
      </div>
      <div className="login-card">
        <div className="login-brand">
          <div className="login-logo">{t('app.shortTitle')}</div>
          <h1>{t('app.title')}</h1>
          <p>{t('login.subtitle')}</p>
        </div>
        <Form form={form} className="login-form" size="large" onFinish={onFinish} initialValues={{ tenantId: website.tenantId }} autoComplete="off">
          <h2 className="login-title">{t('login.title')}</h2>
          {website.tenantMode && (
            <Form.Item name="tenantId" rules={[{ required: true, message: t('login.tenantRequired') }]}>
              <Input prefix={<TeamOutlined />} placeholder={t('login.tenantId')} data-testid="login-tenant" />
            </Form.Item>
          )}
          <Form.Item name="username" rules={[{ required: true, message: t('login.usernameRequired') }]}>
            <Input prefix={<UserOutlined />} placeholder={t('login.username')} data-testid="login-username" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} placeholder={t('login.password')} data-testid="login-password" autoComplete="current-password" />
          </Form.Item>
          {website.captchaMode && (
            <Form.Item name="code" rules={[{ required: true, message: t('login.codeRequired') }]}>
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t('login.code')}
                data-testid="login-code"
                addonAfter={captcha ? <img src={captcha.image} alt={t('login.code')} className="login-captcha" onClick={() => void loadCaptcha()} /> : null}
              />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('login.submit')}
          </Button>
          {website.registerMode && (
            <div className="login-extra">
              <Button type="link" onClick={() => setRegistering(true)} data-testid="login-register">{t('shell.register.link')}</Button>
            </div>
          )}
        </Form>
        {registering && (
          <Suspense fallback={null}>
            <GuestRegisterDialog
              tenantId={(website.tenantMode && form.getFieldValue('tenantId')) || website.tenantId}
              hint={t('shell.register.guestHint')}
              onCancel={() => setRegistering(false)}
              onDone={() => setRegistering(false)}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
