import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export default function ErrorPage({ status }: { status: '403' | '404' | '500' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="error-page" data-testid={`page-${status}`}>
      <Result
        status={status}
        title={status}
        subTitle={t(`error.page.${status}Text`)}
        extra={<Button type="primary" onClick={() => navigate('/')}>{t('error.page.back')}</Button>}
      />
    </div>
  );
}
