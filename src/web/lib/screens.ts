import useSWR from 'swr';
import { getData } from '../api/client.js';
import { session } from '../auth/session.js';
import { i18n } from '../i18n.js';

export interface ScreenSummary {
  id: string;
  route: string;
  title?: string;
}

export const SCREEN_LIST_URL = '/api/blade-system/screen/list';
export const LOCALE_EXTRA_URL = '/api/blade-system/locale/extra';

/** The screen list's answer (an array, or a page's records) → its well-formed entries. */
export function screenSummaries(d: unknown): ScreenSummary[] {
  const arr = Array.isArray(d) ? d : Array.isArray((d as { records?: unknown[] })?.records) ? (d as { records: unknown[] }).records : [];
  return (arr as ScreenSummary[]).filter((x) => x && typeof x.route === 'string');
}

/** The screen document of an address: its route, or a route above it (a process form's pages). */
export function screenForPath(screens: ScreenSummary[] | undefined, path: string): ScreenSummary | undefined {
  return screens?.find((s) => s.route === path) ?? screens?.find((s) => path.startsWith(`${s.route}/`));
}

/**
 * Adds the strings that extra document folders bring (SCHEMA_DIRS, GET /api/blade-system/locale/extra) to the
 * bundled texts, before any screen of those folders is drawn. Bundled keys win: a folder can't rename ours.
 */
async function loadExtraTexts(): Promise<void> {
  const extra = await getData<Record<string, Record<string, unknown>>>(LOCALE_EXTRA_URL).catch(() => undefined);
  for (const [lng, texts] of Object.entries(extra ?? {})) {
    if (texts && typeof texts === 'object' && Object.keys(texts).length) i18n.addResourceBundle(lng, 'translation', texts, true, false);
  }
}

/** Screen documents the server serves (GET /api/blade-system/screen/list), cached by swr, with their folders' texts. */
export function useScreens(): { screens: ScreenSummary[] | undefined; error: unknown } {
  const token = session.use((s) => s.token);
  const { data, error } = useSWR(token ? ['screens', token.length > 0] : null, async () => {
    const [d] = await Promise.all([getData<unknown>(SCREEN_LIST_URL), loadExtraTexts()]);
    return screenSummaries(d);
  }, { revalidateOnFocus: false });
  return { screens: data, error };
}
