import { formatSteps, type Step, type TextMatch } from './selector.js';

/**
 * Writing a chain of steps back out: as the selector syntax `parseSelector` reads
 * ({@link selectorOf}), and as locator code (`app.getByRole('button', { name: 'Save', exact: true })`,
 * {@link codeOf}) that the framework's `parseLocatorInput` reads.
 */

/** A text as `parseSelector` reads it back: bare for a substring, quoted for an exact match. */
function textValue(m: TextMatch): string {
  if (m.text instanceof RegExp) return String(m.text);
  if (!m.exact) return m.text;
  return m.text.includes('"') ? `'${m.text}'` : `"${m.text}"`;
}

/**
 * The selector syntax of a chain, written so that `parseSelector` reads back the same steps.
 */
export function selectorOf(steps: Step[]): string {
  return steps
    .map((s): string => {
      switch (s.kind) {
        case 'text':
          return `text=${textValue(s)}`;
        case 'desc':
          return `desc=${textValue(s)}`;
        case 'id':
          return `id=${s.id}`;
        case 'class':
          return `class=${s.className}`;
        case 'nth':
          return `nth=${s.index}`;
        case 'role': {
          const attrs = [
            s.name ? `[name=${textValue(s.name)}]` : '',
            ...(['checked', 'disabled', 'selected', 'focused'] as const)
              .filter((k) => s[k] !== undefined)
              .map((k) => `[${k}=${s[k]}]`),
          ];
          return `role=${s.role}${attrs.join('')}`;
        }
        case 'filter':
          if (s.hasText && !s.has && !s.hasNotText) return `has-text=${textValue(s.hasText)}`;
          return formatSteps([s]);
        case 'or':
        case 'and':
          return formatSteps([s]);
        case 'relative': {
          const list = s.anchor.map(selectorOf);
          return `${s.rel}=${JSON.stringify(list.length === 1 ? list[0] : list)}`;
        }
        case 'state':
          return `${s.state}=${s.value}`;
      }
    })
    .join(' >> ');
}

/** A string as a single-quoted TypeScript literal; a RegExp as its source. */
const q = (s: string | RegExp) =>
  s instanceof RegExp ? String(s) : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/**
 * The same chain as locator code on `app`: `getById`, `getByRole`, `getByDesc`, `getByText`,
 * `.filter({ hasText })`, `.nth()`, and `locator('…')` for a step with no method of its own.
 * `.filter({ hasText })` matches a substring whatever its case, as Playwright's does, so an
 * exact `has-text="…"` is written as the looser call.
 */
export function codeOf(steps: Step[]): string {
  const calls = steps.map((s): string => {
    switch (s.kind) {
      case 'id':
        return `getById(${q(s.id)})`;
      case 'text':
        return `getByText(${q(s.text)}${s.exact ? ', { exact: true }' : ''})`;
      case 'desc':
        return `getByDesc(${q(s.text)}${s.exact ? ', { exact: true }' : ''})`;
      case 'role':
        if (s.name && Object.keys(s).length === 3)
          return `getByRole(${q(s.role)}, { name: ${q(s.name.text)}${s.name.exact ? ', exact: true' : ''} })`;
        if (Object.keys(s).length === 2) return `getByRole(${q(s.role)})`;
        return `locator(${q(selectorOf([s]))})`;
      case 'filter':
        if (s.hasText && !s.has && !s.hasNotText) return `filter({ hasText: ${q(s.hasText.text)} })`;
        return `locator(${q(selectorOf([s]))})`;
      case 'nth':
        return `nth(${s.index})`;
      default:
        return `locator(${q(selectorOf([s]))})`;
    }
  });
  return `app.${calls.join('.')}`;
}
