import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import zh from '../../../locales/zh.json';
import en from '../../../locales/en.json';

const flat = (o: Record<string, unknown>, p = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}`]));

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []));
}

describe('locales', () => {
  it('zh and en have the same keys', () => {
    const z = new Set(flat(zh)), e = new Set(flat(en));
    expect([...z].filter((k) => !e.has(k))).toEqual([]);
    expect([...e].filter((k) => !z.has(k))).toEqual([]);
  });
  it('every literal key the web shell uses exists in both', () => {
    const root = path.resolve(import.meta.dirname, '../../../src/web');
    const keys = new Set<string>();
    for (const f of files(root)) {
      const src = fs.readFileSync(f, 'utf8');
      for (const m of src.matchAll(/\bt\(\s*'([a-zA-Z][\w-]*(?:\.[\w-]+)+)'/g)) keys.add(m[1]);
      for (const m of src.matchAll(/label: '((?:shell|error|login|home|info)\.[\w.]+)'/g)) keys.add(m[1]);
    }
    const z = new Set(flat(zh)), e = new Set(flat(en));
    expect(keys.size).toBeGreaterThan(50);
    expect([...keys].filter((k) => !z.has(k) || !e.has(k))).toEqual([]);
  });
});
