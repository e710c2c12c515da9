import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { fixedPage } from './fixedPages.js';

/** Registered page whose real implementation lands with a later issue: the route resolves, the page says so. */
export default function Placeholder({ path, params }: { path: string; params?: Record<string, string | undefined> }) {
  const { t } = useTranslation();
  const page = fixedPage(path);
  const detail = Object.entries(params ?? {}).map(([k, v]) => `${k}: ${v}`).join(' · ');
  return (
    <Result
      status="info"
      data-testid="placeholder-page"
      title={page ? t(page.label) : path}
      subTitle={<>{t('shell.notAvailable.text')}{detail && <div className="placeholder-params">{detail}</div>}</>}
    />
  );
}
