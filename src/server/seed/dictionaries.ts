/**
 * Seed dictionaries, read from schemas/data/dictionaries/*.json (the files an analyst edits; format:
 * schemas/meta/dictionaries.schema.json). System ones (kind "system") go to blade_dict, business ones to
 * blade_dict_biz (tenant 000000). A code missing from the database is inserted at every start
 * (seed/index.ts syncDictionaries); one that exists (even deleted) is left as administrators made it.
 * The lint checks `x-dict` codes and values against the same list.
 */
export interface SeedDictionary {
  code: string;
  name: string;
  nameEn: string;
  biz: boolean;
  items: Array<{ key: string; value: string; valueEn: string; remark?: string }>;
  /** Where the dictionary is written (file and JSON pointer of its code), for messages. */
  file?: string;
  at?: string;
}

/** One dictionaries file (already valid against its schema). */
export interface DictionaryFile {
  kind: 'system' | 'business';
  dictionaries: Array<Omit<SeedDictionary, 'biz' | 'file' | 'at'>>;
}

/** The dictionaries of one file, tagged with their table and place. */
export function fileDictionaries(content: DictionaryFile, file: string): SeedDictionary[] {
  return content.dictionaries.map((d, i) => ({ ...d, biz: content.kind === 'business', file, at: `/dictionaries/${i}/code` }));
}
