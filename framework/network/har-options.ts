import { NestwrightError } from '../core/errors.js';

/** A header name (RFC 9110 §5.1: a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks the options object of a HAR writer (`use.recordHar`, `app.routeFromHAR`): an object,
 * with none but the `known` keys — an option spelled wrong would otherwise be a silent no-op, and
 * a misspelt `redact` would keep the very headers it was meant to drop.
 *
 * @returns the message of the first problem, or null.
 */
export function harOptionsProblem(given: unknown, known: readonly string[]): string | null {
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    return `the options are an object { ${known.join(', ')} }, got ${describe(given)}`;
  const unknown = Object.keys(given).find((k) => !known.includes(k));
  if (unknown !== undefined)
    return `unknown option ${JSON.stringify(unknown)}: the options are ${known.join(', ')} (docs/network.md#har)`;
  const redact = (given as { redact?: unknown }).redact;
  const problem = redact === undefined ? null : redactProblem(redact);
  if (problem) return problem;
  for (const [key, values] of Object.entries(CHOICES)) {
    const value = (given as Record<string, unknown>)[key];
    if (value !== undefined && known.includes(key) && !values.includes(value as string))
      return `${key} is ${values.map((v) => `'${v}'`).join(', ')} or left out, got ${describe(value)}`;
  }
  return null;
}

/** The options that take one of a few words (Playwright's): what each takes. */
const CHOICES: Record<string, readonly string[]> = {
  content: ['omit', 'embed', 'attach'],
  mode: ['minimal', 'full'],
  updateContent: ['embed', 'attach'],
  updateMode: ['minimal', 'full'],
};

/** What is wrong with a `redact` value (an array of header names), or null. */
function redactProblem(redact: unknown): string | null {
  if (!Array.isArray(redact))
    return `redact is an array of header names whose values the HAR leaves out, e.g. ['authorization', 'cookie', 'set-cookie'], got ${describe(redact)}`;
  const bad = redact.find((h) => typeof h !== 'string' || !HEADER_NAME.test(h));
  if (bad !== undefined)
    return `redact: ${JSON.stringify(bad)} is not a header name (letters, digits and !#$%&'*+.^_\`|~- only), e.g. 'authorization'`;
  return null;
}

/** Throws `api`'s USAGE error when {@link harOptionsProblem} finds one. */
export function checkHarOptions(api: string, given: unknown, known: readonly string[]): void {
  const problem = harOptionsProblem(given, known);
  if (problem) throw new NestwrightError(api, problem, { code: 'USAGE' });
}

const describe = (v: unknown) => (v === undefined ? 'undefined' : Array.isArray(v) ? 'an array' : JSON.stringify(v));
