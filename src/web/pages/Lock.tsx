import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { Button, Input } from 'antd';
import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Navigate, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { session, clearLock } from '../auth/session.js';
import { logout } from '../auth/actions.js';
import { confirmDialog, toast } from '../lib/toast.js';

/** The lock screen's clock: ticks every second, formatted by dayjs in the app language. */
function Clock() {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const id = setInterval(() => setNow(dayjs()), 1000);
    return () => clearInterval(id);
  }, []);
  const d = now.locale(i18n.language === 'en' ? 'en' : 'zh-cn');
  return (
    <>
      <div className="lock-time" data-testid="lock-time">{d.format('HH:mm:ss')}</div>
      <div className="lock-date" data-testid="lock-date">{d.format(t('shell.lock.dateFormat'))}</div>
    </>
  );
}

/** Lock screen: unlock with the lock password (or log out). */
export default function Lock() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isLock = session.use((s) => s.isLock);
  const token = session.use((s) => s.token);
  const passwd = session.use((s) => s.lockPasswd);
  const userInfo = session.use((s) => s.userInfo);
  const [value, setValue] = useState('');
  const [error, setError] = useState(false);
  if (!token) return <Navigate to="/login" replace />;
  if (!isLock) return <Navigate to="/" replace />;
  const unlock = () => {
    if (!value) {
      setError(true);
      return toast.error(t('shell.lock.required'));
    }
    if (value !== passwd) {
      setError(true);
      return toast.error(t('shell.lock.wrong'));
    }
    clearLock();
    navigate('/', { replace: true });
  };
  return (
    <div className="lock-page" data-testid="lock-page">
      <div className="lock-box">
        <Clock />
        <LockOutlined className="lock-icon" />
        <div className="lock-user">{userInfo?.real_name || userInfo?.account || ''}</div>
        <Input.Password
          className={error ? 'shake' : ''}
          status={error ? 'error' : undefined}
          placeholder={t('shell.lock.password')}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError(false);
          }}
          onPressEnter={unlock}
          data-testid="unlock-password"
          style={{ maxWidth: 280 }}
        />
        <div className="lock-actions">
          <Button type="primary" icon={<UnlockOutlined />} onClick={unlock} data-testid="unlock-submit">{t('shell.lock.unlock')}</Button>
          <Button
            onClick={async () => {
              if (await confirmDialog({ title: t('shell.user.logoutConfirm'), okText: t('common.action.ok'), cancelText: t('common.action.cancel') })) await logout();
            }}
          >
            {t('shell.user.logout')}
          </Button>
        </div>
      </div>
    </div>
  );
}
