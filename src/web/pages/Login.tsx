import { lazy, Suspense, useEffect, useState, type ChangeEvent, type CSSProperties } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import theme from 'antd/es/theme';
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { website } from '../config.js';
import { login } from '../auth/actions.js';
import { afterLoginTarget } from '../layout/Root.js';
import { request } from '../api/client.js';
import { LoginLanguage } from './LoginLanguage.js';
import { controlProps, LightField, useRequiredRule } from '../../runtime/react/LightField.js';

// a guest's request for an account: its dialog loads when the link is used
const GuestRegisterDialog = lazy(() => import('../auth/GuestRegisterDialog.js').then((m) => ({ default: m.GuestRegisterDialog })));

interface LoginValues {
  tenantId: string;
  username: string;
  password: string;
  code: string;
}

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
  const { token } = theme.useToken();
  const [values, setValues] = useState<LoginValues>(() => ({ tenantId: website.tenantId, username: '', password: '', code: '' }));
  const [registering, setRegistering] = useState(false);

  const loadCaptcha = () =>
    request<Captcha & { data?: Captcha }>({ url: '/api/blade-auth/oauth/captcha', withToken: false })
      .then((r) => setCaptcha(r.data ?? r))
      .catch(() => undefined);
  useEffect(() => {
    if (website.captchaMode) void loadCaptcha();
  }, []);

  const required = useRequiredRule(values, {
    ...(website.tenantMode ? { tenantId: 'login.tenantRequired' } : {}),
    username: 'login.usernameRequired',
    password: 'login.passwordRequired',
    ...(website.captchaMode ? { code: 'login.codeRequired' } : {}),
  });
  const errorOf = (field: keyof LoginValues) => {
    const key = required.errorOf(field);
    return key && t(key);
  };
  const change = (field: keyof LoginValues) => (e: ChangeEvent<HTMLInputElement>) => setValues((old) => ({ ...old, [field]: e.target.value }));

  const submit = async () => {
    if (!required.check()) return;
    setBusy(true);
    try {
      await login({ tenantId: values.tenantId || undefined, username: values.username, password: values.password, captchaKey: captcha?.key, captchaCode: values.code || undefined });
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
        <form
          className="login-form light-form-stack"
          style={{ '--light-field-error': token.colorError } as CSSProperties}
          autoComplete="off"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <h2 className="login-title">{t('login.title')}</h2>
          {website.tenantMode && (
            <LightField id="login-tenantId" error={errorOf('tenantId')}>
              <Input {...controlProps('login-tenantId', errorOf('tenantId'))} size="large" prefix={<TeamOutlined />} placeholder={t('login.tenantId')} data-testid="login-tenant" value={values.tenantId} onChange={change('tenantId')} />
            </LightField>
          )}
          <LightField id="login-username" error={errorOf('username')}>
            <Input {...controlProps('login-username', errorOf('username'))} size="large" prefix={<UserOutlined />} placeholder={t('login.username')} data-testid="login-username" autoComplete="username" value={values.username} onChange={change('username')} />
          </LightField>
          <LightField id="login-password" error={errorOf('password')}>
            <Password {...controlProps('login-password', errorOf('password'))} size="large" prefix={<LockOutlined />} placeholder={t('login.password')} data-testid="login-password" autoComplete="current-password" value={values.password} onChange={change('password')} />
          </LightField>
          {website.captchaMode && (
            <LightField id="login-code" error={errorOf('code')}>
              <Input
                {...controlProps('login-code', errorOf('code'))}
                size="large"
                prefix={<SafetyOutlined />}
                placeholder={t('login.code')}
                data-testid="login-code"
                value={values.code}
                onChange={change('code')}
                addonAfter={captcha ? <img src={captcha.image} alt={t('login.code')} className="login-captcha" onClick={() => void loadCaptcha()} /> : null}
              />
            </LightField>
          )}
          <Button type="primary" size="large" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('login.submit')}
          </Button>
          {website.registerMode && (
            <div className="login-extra">
              <Button type="link" size="large" onClick={() => setRegistering(true)} data-testid="login-register">{t('shell.register.link')}</Button>
            </div>
          )}
        </form>
        {registering && (
          <Suspense fallback={null}>
            <GuestRegisterDialog
              tenantId={(website.tenantMode && values.tenantId.trim()) || website.tenantId}
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
