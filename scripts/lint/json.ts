/**
 * A small JSON parser that, unlike JSON.parse, reports duplicate keys (JSON.parse silently keeps the last
 * one, so a field declared twice would vanish without a word) and syntax errors with line and column.
 */
import { escapePointer, type Problem } from '../../src/server/meta-schema.js';

export { escapePointer, type Problem };

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => '/' + escapePointer(s)).join('');
}

/** Parse JSON text; duplicate keys are returned as problems at the pointer of the repeated key. */
export function parseJson(text: string): { value: unknown; duplicates: Problem[] } {
  let i = 0;
  const duplicates: Problem[] = [];

  const fail = (msg: string): never => {
    const before = text.slice(0, i);
    const line = before.split('\n').length;
    const column = i - before.lastIndexOf('\n');
    throw new JsonSyntaxError(msg, line, column);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail(text[i] === undefined ? `expected "${c}", found the end of the file` : `expected "${c}", found "${text[i]}"`);
    i++;
  };

  const str = (): string => {
    const start = i;
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('control character in string');
      i++;
    }
    expect('"');
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      i = start;
      return fail('invalid string escape');
    }
  };

  const value = (ptr: string): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        const key = str();
        const child = ptr + '/' + escapePointer(key);
        if (seen.has(key)) duplicates.push({ pointer: child, message: `duplicate key "${key}" (JSON keeps only the last one)` });
        seen.add(key);
        ws();
        expect(':');
        out[key] = value(child);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] !== '}') fail(text[i] === undefined ? 'expected "," or "}", found the end of the file' : `expected "," or "}", found "${text[i]}"`);
        i++;
        return out;
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value(ptr + '/' + out.length));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] !== ']') fail(text[i] === undefined ? 'expected "," or "]", found the end of the file' : `expected "," or "]", found "${text[i]}"`);
        i++;
        return out;
      }
    }
    if (c === '"') return str();
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) return fail(c === undefined ? 'unexpected end of the file' : `unexpected "${c}"`);
    i += m[0].length;
    return JSON.parse(m[0]) as unknown;
  };

  const out = value('');
  ws();
  if (i < text.length) fail(`unexpected "${text[i]}" after the end of the document`);
  return { value: out, duplicates };
}
