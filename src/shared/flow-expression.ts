/**
 * The workflow's expression language, evaluated without running any code: `${ … }` holding variable names (dotted
 * paths into the process variables), numbers, 'strings' or "strings", true / false / null, comparison
 * (== != > >= < <=), && || ! and parentheses. Gateway conditions (`${days > 3}`, `${pass}`), assignees
 * (`${applyUser}`) and timer durations (`${escalateAfter}`) use it. Anything else (a call, an assignment, an index)
 * is refused when the model is deployed (checkExpression), so a model can never execute code on the server.
 * Shared: the engine runs it (src/server/modules/flow) and the designer checks what is typed with the same grammar,
 * naming what is wrong by an ExpressionError code.
 */

type Token = { kind: 'num' | 'str' | 'name' | 'op' | 'lit'; value: string | number | boolean | null };

const OPS = ['&&', '||', '==', '!=', '>=', '<=', '>', '<', '!', '(', ')'];

/** What is wrong with an expression (the designer shows `flowDesigner.error.condition<Code>`). */
export type ExpressionErrorCode = 'empty' | 'string' | 'call' | 'member' | 'assign' | 'char' | 'incomplete' | 'paren' | 'syntax';

export class ExpressionError extends Error {
  constructor(
    readonly code: ExpressionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ kind: 'op', value: op });
      i += op.length;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionError('string', 'unterminated string');
      out.push({ kind: 'str', value: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num && (c !== '-' || out.length === 0 || out[out.length - 1].kind === 'op')) {
      out.push({ kind: 'num', value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*/.exec(src.slice(i));
    if (name) {
      const w = name[0];
      if (w === 'true' || w === 'false' || w === 'null') out.push({ kind: 'lit', value: w === 'null' ? null : w === 'true' });
      else out.push({ kind: 'name', value: w });
      i += w.length;
      // a name followed by `(` is a call; by `[` an index; a dot not followed by a name is a member access
      const rest = src.slice(i).trimStart();
      if (rest.startsWith('(')) throw new ExpressionError('call', `${w}(…): calls are not allowed`);
      if (rest.startsWith('[') || rest.startsWith('.')) throw new ExpressionError('member', `${w}: member access is not allowed`);
      continue;
    }
    if (c === '=' && src[i + 1] !== '=') throw new ExpressionError('assign', '"=" is not a comparison (use ==)');
    throw new ExpressionError('char', `unexpected "${c}"`);
  }
  return out;
}

type Node =
  | { t: 'val'; v: unknown }
  | { t: 'var'; path: string[] }
  | { t: 'not'; e: Node }
  | { t: 'bin'; op: string; l: Node; r: Node };

const PRECEDENCE: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '>': 4, '>=': 4, '<': 4, '<=': 4 };

function parse(tokens: Token[]): Node {
  let pos = 0;
  const peek = () => tokens[pos];
  const primary = (): Node => {
    const tok = tokens[pos++];
    if (!tok) throw new ExpressionError('incomplete', 'unexpected end');
    if (tok.kind === 'op' && tok.value === '!') return { t: 'not', e: primary() };
    if (tok.kind === 'op' && tok.value === '(') {
      const e = binary(0);
      const close = tokens[pos++];
      if (!close || close.value !== ')') throw new ExpressionError('paren', 'missing )');
      return e;
    }
    if (tok.kind === 'num' || tok.kind === 'str' || tok.kind === 'lit') return { t: 'val', v: tok.value };
    if (tok.kind === 'name') {
      const path = String(tok.value).split('.');
      // `environment.variables.x` (bpmn-engine's own spelling) and `variables.x` mean `x`
      if (path[0] === 'environment' && path[1] === 'variables') path.splice(0, 2);
      else if (path[0] === 'variables') path.splice(0, 1);
      if (!path.length) throw new ExpressionError('syntax', 'a variable name is needed');
      return { t: 'var', path };
    }
    throw new ExpressionError(tok.value === ')' ? 'paren' : 'syntax', `unexpected "${tok.value}"`);
  };
  const binary = (min: number): Node => {
    let left = primary();
    for (;;) {
      const tok = peek();
      const prec = tok && tok.kind === 'op' ? PRECEDENCE[String(tok.value)] : undefined;
      if (prec === undefined || prec < min) break;
      pos++;
      const right = binary(prec + 1);
      left = { t: 'bin', op: String(tok.value), l: left, r: right };
    }
    return left;
  };
  const node = binary(0);
  if (pos !== tokens.length) throw new ExpressionError(tokens[pos].value === ')' ? 'paren' : 'syntax', `unexpected "${tokens[pos].value}"`);
  return node;
}

function evaluate(n: Node, vars: Record<string, unknown>): unknown {
  switch (n.t) {
    case 'val':
      return n.v;
    case 'var': {
      let v: unknown = vars;
      for (const p of n.path) v = v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, p) ? (v as Record<string, unknown>)[p] : undefined;
      return v;
    }
    case 'not':
      return !evaluate(n.e, vars);
    case 'bin': {
      if (n.op === '&&') return evaluate(n.l, vars) && evaluate(n.r, vars);
      if (n.op === '||') return evaluate(n.l, vars) || evaluate(n.r, vars);
      const l = evaluate(n.l, vars);
      const r = evaluate(n.r, vars);
      // numbers compare as numbers even when a form sent them as text ("4" > 3)
      const num = (x: unknown) => (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x)) ? Number(x) : x);
      const a = num(l);
      const b = num(r);
      switch (n.op) {
        case '==':
          return a === b || (a == null && b == null);
        case '!=':
          return !(a === b || (a == null && b == null));
        case '>':
          return (a as number) > (b as number);
        case '>=':
          return (a as number) >= (b as number);
        case '<':
          return (a as number) < (b as number);
        default:
          return (a as number) <= (b as number);
      }
    }
  }
}

const WHOLE = /^\s*\$\{([\s\S]*)\}\s*$/;
const ANY = /\$\{([^}]*)\}/g;

/** Why the inside of one `${ … }` is not an expression of the language (an ExpressionError), or null. */
export function expressionError(inner: string): ExpressionError | null {
  if (!inner.trim()) return new ExpressionError('empty', 'empty expression');
  try {
    parse(tokenize(inner));
    return null;
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
}

/** Why `text` is not a valid expression (or template with expressions), or null. */
export function checkExpression(text: string): string | null {
  try {
    for (const m of text.matchAll(ANY)) parse(tokenize(m[1]));
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * The value of `text`: a whole `${…}` gives its value (a boolean, a number…), a template with several gives the
 * text with each replaced, text without `${` is itself.
 */
export function resolveExpression(text: string, vars: Record<string, unknown>): unknown {
  const whole = WHOLE.exec(text);
  if (whole && !whole[1].includes('}')) return evaluate(parse(tokenize(whole[1])), vars);
  return text.replace(ANY, (_, inner: string) => {
    const v = evaluate(parse(tokenize(inner)), vars);
    return v === undefined || v === null ? '' : String(v);
  });
}

/** The expressions handler bpmn-engine takes (`expressions` option): conditions and durations through ours. */
export const engineExpressions = {
  resolveExpression(text: string, context: { environment?: { variables?: Record<string, unknown> } } = {}) {
    return resolveExpression(text, context.environment?.variables ?? {});
  },
  isExpression: (text: unknown) => typeof text === 'string' && WHOLE.test(text),
  hasExpression: (text: unknown) => typeof text === 'string' && /\$\{[^}]*\}/.test(text),
};
