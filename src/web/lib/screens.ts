/** The screen documents the server serves: where the list is, and which document an address shows (pure; useScreens.ts reads it). */
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
