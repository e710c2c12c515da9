// Merges the web shell's locale keys into locales/<lang>.json without reformatting the file:
// - a section the shell owns (login, shell, home, info) is written as one block (replaced when present);
// - in shared sections (app, common, error) only missing keys are inserted, at the start of their parent object.
// Run: node src/web/locales-src/merge.mjs
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const OWN = ['login', 'shell', 'home', 'info'];

/** Spans [start, end) of every object/value in a JSON text, by key path joined with '\u0000'. */
function spans(text) {
  const out = new Map();
  let i = 0;
  const ws = () => { while (/\s/.test(text[i])) i++; };
  const str = () => { const s = i; i++; while (text[i] !== '"') { if (text[i] === '\\') i++; i++; } i++; return JSON.parse(text.slice(s, i)); };
  const value = (p) => {
    ws();
    const s = i;
    if (text[i] === '{') {
      i++; ws();
      if (text[i] === '}') i++;
      else for (;;) {
        ws(); const k = str(); ws(); i++; /* : */
        value([...p, k]); ws();
        if (text[i] === ',') { i++; continue; }
        i++; break;
      }
    } else if (text[i] === '[') {
      i++; ws();
      if (text[i] === ']') i++;
      else for (;;) { value([...p, '#']); ws(); if (text[i] === ',') { i++; continue; } i++; break; }
    } else if (text[i] === '"') str();
    else { while (i < text.length && !/[,}\]\s]/.test(text[i])) i++; }
    out.set(p.join('\u0000'), [s, i]);
  };
  value([]);
  return out;
}

function inline(v) {
  if (v && typeof v === 'object') return '{ ' + Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ') + ' }';
  return JSON.stringify(v);
}
/** Compact block: objects that fit in 150 columns stay on one line. */
function format(v, depth) {
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  const pad = '  '.repeat(depth + 1);
  const one = inline(v);
  if (one.length + pad.length <= 150) return one;
  return '{\n' + Object.entries(v).map(([k, x]) => `${pad}${JSON.stringify(k)}: ${format(x, depth + 1)}`).join(',\n') + '\n' + '  '.repeat(depth) + '}';
}

function leaves(obj, p = [], out = []) {
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object') leaves(v, [...p, k], out);
    else out.push([[...p, k], v]);
  }
  return out;
}

function mergeLang(lang) {
  const file = path.join(here, '../../../locales', `${lang}.json`);
  let text = fs.readFileSync(file, 'utf8');
  const mine = JSON.parse(fs.readFileSync(path.join(here, `shell.${lang}.json`), 'utf8'));
  for (const [sec, val] of Object.entries(mine)) {
    const sp = spans(text);
    if (OWN.includes(sec)) {
      const block = format(val, 1);
      const cur = sp.get(sec);
      if (cur) text = text.slice(0, cur[0]) + block + text.slice(cur[1]);
      else {
        const root = sp.get('');
        const close = text.lastIndexOf('}', root[1]);
        let before = text.slice(0, close).replace(/\s*$/, '');
        text = `${before},\n  ${JSON.stringify(sec)}: ${block}\n` + text.slice(close);
      }
      continue;
    }
    for (const [p, v] of leaves(val, [sec])) {
      const cur = spans(text);
      if (cur.has(p.join('\u0000'))) continue;
      // deepest existing parent object
      let d = p.length - 1;
      while (d > 0 && !cur.has(p.slice(0, d).join('\u0000'))) d--;
      const parent = cur.get(p.slice(0, d).join('\u0000'));
      let nested = v;
      for (let j = p.length - 1; j > d; j--) nested = { [p[j]]: nested };
      const entry = `${JSON.stringify(p[d])}: ${inline(nested)}`;
      const inner = text.slice(parent[0] + 1, parent[1] - 1).trim();
      text = text.slice(0, parent[0] + 1) + ` ${entry}${inner ? ',' : ' '}` + text.slice(parent[0] + 1);
    }
  }
  JSON.parse(text);
  fs.writeFileSync(file, text);
}

for (const lang of ['zh', 'en']) mergeLang(lang);
