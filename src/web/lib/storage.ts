import { website } from '../config.js';

/** Saber's store item: `{content, dataType, type, datetime}` under `<prefix>-<name>`. */
export interface StoreItem<T = unknown> {
  content: T;
  dataType: string;
  /** true = sessionStorage, false = localStorage (Saber's `type`). */
  type: boolean;
  datetime: number;
}

const keyName = (name: string) => `${website.key}-${name}`;

export function setStore<T>(name: string, content: T, session = false): void {
  const item: StoreItem<T> = { content, dataType: typeof content, type: session, datetime: Date.now() };
  const raw = JSON.stringify(item);
  (session ? sessionStorage : localStorage).setItem(keyName(name), raw);
  if (!session) sessionStorage.removeItem(keyName(name));
  else localStorage.removeItem(keyName(name));
}

export function getStoreItem<T = unknown>(name: string): StoreItem<T> | undefined {
  const raw = sessionStorage.getItem(keyName(name)) ?? localStorage.getItem(keyName(name));
  if (raw == null) return undefined;
  try {
    const item = JSON.parse(raw) as StoreItem<T>;
    if (item && typeof item === 'object' && 'content' in item) return item;
  } catch {
    /* a foreign value: ignore */
  }
  return undefined;
}

export function getStore<T = unknown>(name: string): T | undefined {
  return getStoreItem<T>(name)?.content;
}

export function removeStore(name: string): void {
  localStorage.removeItem(keyName(name));
  sessionStorage.removeItem(keyName(name));
}
