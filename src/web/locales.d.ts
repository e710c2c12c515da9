// The string sections served by the locale-sections build plugin (scripts/vite-locales.ts).
declare module 'virtual:locales' {
  export const SECTIONS: string[];
  export const sectionLoaders: Record<'zh' | 'en', Record<string, () => Promise<{ default: Record<string, unknown> }>>>;
}
declare module 'virtual:locales/*' {
  const texts: Record<string, Record<string, unknown>>;
  export default texts;
}
