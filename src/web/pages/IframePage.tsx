import { useLocation } from 'react-router-dom';
import { Result } from '../../runtime/react/LazyResult.js';
import { useTranslation } from 'react-i18next';
import { session } from '../auth/session.js';

/** /myiframe/:routerPath — the external page whose URL (and its parameters) come from the query. */
export function iframeSrc(search: string, token: string): string {
  const q = new URLSearchParams(search);
  let url = q.get('url') ?? q.get('src') ?? '';
  if (!url) return '';
  url = url.replace(/#/g, '&').replace(/\$\{token\}/g, token);
  const extra = new URLSearchParams();
  for (const [k, v] of q) if (!['url', 'src', 'name', 'target'].includes(k)) extra.append(k, v);
  const s = extra.toString();
  if (s) url += (url.includes('?') ? '&' : '?') + s;
  return /^(https?:)?\/\//i.test(url) || url.startsWith('/') ? url : '';
}

export default function IframePage() {
  const loc = useLocation();
  const { t } = useTranslation();
  const token = session.use((s) => s.token);
  const src = iframeSrc(loc.search, token);
  if (!src) return <Result status="warning" title={t('shell.iframe.noUrl')} />;
  return <iframe className="page-iframe" src={src} title={src} data-testid="page-iframe" />;
}
