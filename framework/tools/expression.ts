import { NestwrightError } from '../core/errors.js';
import { parseSelector, type Step, type TextMatch } from '../core/selector.js';

/**
 * Read a locator written as code — `app.getByRole('button', { name: 'Save' }).nth(0)`, as a user
 * types it in the inspector or an agent passes it to `try_locator` — into the steps a `Locator`
 * holds, without evaluating anything. Anything else is taken as the selector syntax of
 * `app.locator()`.
 *
 * A small recursive-descent reader rather than a JavaScript parser: the grammar is a chain of
 * calls whose arguments are literals (strings, regexes, numbers, booleans, object literals) or
 * another chain (`has:`), and a general parser would accept far more than this can mean.
 */
export function parseLocatorInput(input: string, api = 'locator'): Step[] {
  const src = input.trim();
  if (!/^(?:(?:app|page|this\.app)\s*\.\s*)?(?:getBy\w+|locator)\s*\(/.test(src)) return parseSelector(src, api);
  const reader = new Reader(src, api);
  const steps = reader.chain();
  reader.skip();
  if (reader.pos < src.length) reader.fail(`unexpected ${JSON.stringify(src.slice(reader.pos, reader.pos + 12))}`);
  return steps;
}

type Value = string | number | boolean | RegExp | { [k: string]: Value } | Step[];

class Reader {
  pos = 0;
  constructor(
    readonly src: string,
    readonly api: string,
  ) {}

  fail(why: string): never {
    throw new NestwrightError(
      this.api,
      `cannot read the locator ${JSON.stringify(this.src)}: ${why} at column ${this.pos + 1}; write e.g. getByRole('button', { name: 'Save' }) or text="Save"`,
      { code: 'USAGE' },
    );
  }
  skip(): void {
    while (/\s/.test(this.src[this.pos] ?? '')) this.pos++;
  }
  eat(ch: string): boolean {
    this.skip();
    if (this.src[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }
  expect(ch: string): void {
    if (!this.eat(ch)) this.fail(`expected "${ch}"`);
  }
  ident(): string {
    this.skip();
    const m = /^[A-Za-z_$][\w$]*/.exec(this.src.slice(this.pos));
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  chain(): Step[] {
    this.skip();
    if (/^(app|page)\s*\./.test(this.src.slice(this.pos))) {
      this.ident();
      this.expect('.');
    } else if (/^this\s*\.\s*app\s*\./.test(this.src.slice(this.pos))) {
      this.ident();
      this.expect('.');
      this.ident();
      this.expect('.');
    }
    const steps: Step[] = [];
    do {
      const name = this.ident();
      this.expect('(');
      const args: Value[] = [];
      if (!this.eat(')')) {
        do args.push(this.value());
        while (this.eat(','));
        this.expect(')');
      }
      steps.push(...this.call(name, args));
    } while (this.eat('.'));
    return steps;
  }

  call(name: string, args: Value[]): Step[] {
    const str = (i: number): string | RegExp => {
      const v = args[i];
      if (typeof v === 'string' || v instanceof RegExp) return v;
      return this.fail(`${name}() takes a string or a regular expression as argument ${i + 1}`);
    };
    const opts = (i: number): Record<string, Value> => {
      const v = args[i];
      if (v === undefined) return {};
      if (typeof v === 'object' && !(v instanceof RegExp) && !Array.isArray(v)) return v;
      return this.fail(`${name}() takes an options object as argument ${i + 1}`);
    };
    const match = (text: string | RegExp, exact: Value | undefined): TextMatch => ({ text, exact: exact === true });
    switch (name) {
      case 'getByText':
        return [{ kind: 'text', ...match(str(0), opts(1).exact) }];
      case 'getByDesc':
        return [{ kind: 'desc', ...match(str(0), opts(1).exact) }];
      case 'getById': {
        const id = str(0);
        if (typeof id !== 'string') this.fail('getById() takes a string');
        return [{ kind: 'id', id }];
      }
      case 'getByRole': {
        const role = str(0);
        if (typeof role !== 'string') this.fail('getByRole() takes the role as a string');
        const o = opts(1);
        const step: Extract<Step, { kind: 'role' }> = { kind: 'role', role };
        if (o.name !== undefined) step.name = match(o.name as string | RegExp, o.exact);
        for (const k of ['checked', 'disabled', 'selected', 'focused'] as const)
          if (typeof o[k] === 'boolean') step[k] = o[k];
        return [step];
      }
      case 'locator': {
        const sel = str(0);
        if (typeof sel !== 'string') this.fail('locator() takes a selector string');
        return parseSelector(sel, this.api);
      }
      case 'filter': {
        const o = opts(0);
        const text = (v: Value | undefined) =>
          typeof v === 'string' || v instanceof RegExp ? { text: v, exact: false } : undefined;
        const has = Array.isArray(o.has) ? (o.has as Step[]) : undefined;
        return [
          {
            kind: 'filter',
            ...(text(o.hasText) ? { hasText: text(o.hasText)! } : {}),
            ...(text(o.hasNotText) ? { hasNotText: text(o.hasNotText)! } : {}),
            ...(has ? { has } : {}),
          },
        ];
      }
      case 'nth':
        if (typeof args[0] !== 'number') this.fail('nth() takes a number');
        return [{ kind: 'nth', index: args[0] }];
      case 'first':
        return [{ kind: 'nth', index: 0 }];
      case 'last':
        return [{ kind: 'nth', index: -1 }];
      default:
        return this.fail(
          `${name}() is not a locator method (getByText, getByRole, getById, getByDesc, locator, filter, nth, first, last)`,
        );
    }
  }

  value(): Value {
    this.skip();
    const c = this.src[this.pos];
    if (c === "'" || c === '"' || c === '`') return this.string(c);
    if (c === '/') return this.regex();
    if (c === '{') return this.object();
    const rest = this.src.slice(this.pos);
    const num = /^-?\d+(\.\d+)?/.exec(rest);
    if (num) {
      this.pos += num[0].length;
      return Number(num[0]);
    }
    const bool = /^(true|false)\b/.exec(rest);
    if (bool) {
      this.pos += bool[0].length;
      return bool[0] === 'true';
    }
    if (/^(app|page|this)\b/.test(rest) || /^(getBy\w+|locator)\s*\(/.test(rest)) return this.chain();
    return this.fail('expected a string, regular expression, number, boolean, object or locator');
  }

  string(quote: string): string {
    let out = '';
    for (this.pos++; this.pos < this.src.length; this.pos++) {
      const c = this.src[this.pos]!;
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (quote === '`' && c === '$' && this.src[this.pos + 1] === '{')
        this.fail('template literals with ${…} cannot be read');
      if (c === '\\') {
        const n = this.src[++this.pos];
        out += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '');
      } else out += c;
    }
    return this.fail('unterminated string');
  }

  regex(): RegExp {
    const m = /^\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n])+)\/([dgimsuy]*)/.exec(this.src.slice(this.pos));
    if (!m) this.fail('bad regular expression');
    this.pos += m[0].length;
    try {
      return new RegExp(m[1]!, m[2]);
    } catch (e) {
      return this.fail((e as Error).message);
    }
  }

  object(): Record<string, Value> {
    this.expect('{');
    const out: Record<string, Value> = {};
    while (!this.eat('}')) {
      this.skip();
      const c = this.src[this.pos];
      const key = c === "'" || c === '"' ? this.string(c) : this.ident();
      this.expect(':');
      out[key] = this.value();
      if (!this.eat(',')) {
        this.expect('}');
        break;
      }
    }
    return out;
  }
}
