import useSWR from 'swr';
import { getData } from '../api/client.js';
import { session } from '../auth/session.js';

export interface ScreenSummary {
  id: string;
  route: string;
  title?: string;
}

/** Screen documents the server serves (GET /api/blade-system/screen/list), cached by swr. */
export function useScreens(): { screens: ScreenSummary[] | undefined; error: unknown } {
  const token = session.use((s) => s.token);
  const { data, error } = useSWR(token ? ['screens', token.length > 0] : null, async () => {
    const d = await getData<unknown>('/api/blade-system/screen/list');
    const arr = Array.isArray(d) ? d : Array.isArray((d as { records?: unknown[] })?.records) ? (d as { records: unknown[] }).records : [];
    return (arr as ScreenSummary[]).filter((x) => x && typeof x.route === 'string');
  }, { revalidateOnFocus: false });
  return { screens: data, error };
}
