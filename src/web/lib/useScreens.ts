/**
 * The screen list as the shell's pages read it (swr), apart from screens.ts so that start-up, which only needs
 * the addresses, does not load swr (issue 13).
 */
import useSWR from 'swr';
import { getData, takeAnswer } from '../api/client.js';
import { useFirstAnswer } from '../../runtime/react/useFirstAnswer.js';
import { session } from '../auth/session.js';
import { i18n } from '../i18n.js';
import { LOCALE_EXTRA_URL, SCREEN_LIST_URL, screenSummaries, type ScreenSummary } from './screens.js';

/**
 * Adds the strings that extra document folders bring (SCHEMA_DIRS, GET /api/blade-system/locale/extra) to the
 * bundled texts, before any screen of those folders is drawn. Bundled keys win: a folder can't rename ours.
 */
async function loadExtraTexts(): Promise<void> {
  addExtraTexts(await getData<Record<string, Record<string, unknown>>>(LOCALE_EXTRA_URL).catch(() => undefined));
}

function addExtraTexts(extra: Record<string, Record<string, unknown>> | undefined): void {
  for (const [lng, texts] of Object.entries(extra ?? {})) {
    if (texts && typeof texts === 'object' && Object.keys(texts).length) i18n.addResourceBundle(lng, 'translation', texts, true, false);
  }
}

/** Screen documents the server serves (GET /api/blade-system/screen/list), cached by swr, with their folders' texts. */
export function useScreens(): { screens: ScreenSummary[] | undefined; error: unknown } {
  const token = session.use((s) => s.token);
  const key = token ? ['screens', token.length > 0] : null;
  // start-up read both on a reload (lib/startup.ts): the first render then has the list
  const first = useFirstAnswer(key, () => {
    const extra = takeAnswer<Record<string, Record<string, unknown>>>(LOCALE_EXTRA_URL);
    if (extra === undefined) return undefined;
    addExtraTexts(extra);
    const list = takeAnswer<unknown>(SCREEN_LIST_URL);
    return list === undefined ? undefined : screenSummaries(list);
  });
  const { data, error } = useSWR(
    key,
    async () => {
      const [d] = await Promise.all([getData<unknown>(SCREEN_LIST_URL), loadExtraTexts()]);
      return screenSummaries(d);
    },
    { revalidateOnFocus: false, ...first },
  );
  return { screens: data, error };
}
