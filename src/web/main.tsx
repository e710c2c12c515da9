import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n.js';
import { installErrorCapture } from './lib/errorLog.js';
import { applyServerConfig } from './config.js';
import { App } from './App.js';
import { startFirstScreen } from './lib/startup.js';
import './styles/shell.css';

const languageLoaded = initI18n();
installErrorCapture();
// The reads and the code of the first screen start now, in parallel with the site config (lib/startup.ts).
startFirstScreen(window.location.pathname, window.location.search);

/** Site switches from the server (tenant/captcha/switch mode, token time); defaults when it does not answer. */
async function loadConfig(): Promise<void> {
  try {
    const ctrl = new AbortController();
    const t = setTimeout(() => ctrl.abort(), 3000);
    const res = await fetch('/api/blade-desk/shell/config', { signal: ctrl.signal });
    clearTimeout(t);
    if (res.ok) applyServerConfig(((await res.json()) as { data?: unknown }).data as never);
  } catch {
    /* defaults */
  }
}

void Promise.all([loadConfig(), languageLoaded]).then(() => {
  createRoot(document.getElementById('root')!).render(<App />);
});
