import { nearest } from '../../device-runtime/protocol/nearest.js';
import { NestwrightError } from './errors.js';
import { parseSelector, ROLES, type Role, type Step, type TextMatch } from './selector.js';

/** What `getByRole(role, options)` narrows by, besides the role. Unset fields match anything. */
export interface RoleOptions {
  /** The accessible name: the node's text or content description (substring, case-insensitive; a RegExp tests it). */
  name?: string | RegExp;
  /** Match `name` whole and case-sensitive. */
  exact?: boolean;
  /** A checkbox, switch or radio button in that state. */
  checked?: boolean;
  /** Disabled (true) or enabled (false). */
  disabled?: boolean;
  /** Selected (a tab, a list row). */
  selected?: boolean;
  /** Holding the input focus. */
  focused?: boolean;
}

export const textMatch = (text: string | RegExp, exact = false): TextMatch => ({ text, exact });

/**
 * The `getBy*` methods, shared by {@link App} (searching the whole screen) and {@link Locator}
 * (searching below each of its matches). They only describe: nothing is looked up until an
 * action or assertion runs.
 */
export abstract class LocatorFactory<L> {
  protected abstract chain(steps: Step[]): L;
  /**
   * Nodes whose own text contains `text` (whitespace normalized, case-insensitive), or equals it
   * with `exact: true`; a RegExp tests the text. The selector form is `text=…` (`text="…"` exact).
   *
   * @example
   * ```ts
   * await app.getByText('New note').tap();
   * await expect(app.getByText('Buy milk', { exact: true })).toBeVisible();
   * await expect(app.getByText(/saved|synced/i)).toBeVisible();
   * ```
   */
  getByText(text: string | RegExp, opts: { exact?: boolean } = {}): L {
    return this.chain([{ kind: 'text', ...textMatch(text, opts.exact) }]);
  }
  /**
   * Nodes whose content description (what TalkBack reads for an icon) matches, as
   * `getByText` matches text. Selector form: `desc=…`.
   *
   * @example
   * ```ts
   * await app.getByDesc('Send').tap();
   * ```
   */
  getByDesc(text: string | RegExp, opts: { exact?: boolean } = {}): L {
    return this.chain([{ kind: 'desc', ...textMatch(text, opts.exact) }]);
  }
  /**
   * Nodes with this resource id: the short name (`'title'` matches `<package>:id/title` of any
   * package) or the full one (`'com.nestwright.notes:id/title'`). Selector form: `id=…`.
   *
   * @example
   * ```ts
   * await app.getById('title').fill('Buy milk');
   * ```
   */
  getById(id: string): L {
    return this.chain([{ kind: 'id', id }]);
  }
  /**
   * Nodes of an accessibility role (`button`, `checkbox`, `textbox`, `listitem`, …, as the
   * observation names them: {@link Role}), narrowed by name and state ({@link RoleOptions}).
   * Selector form: `role=button[name="Save"][disabled=false]`. A role no observation names
   * throws at once (`USAGE`), with the nearest one.
   *
   * @example
   * ```ts
   * await app.getByRole('button', { name: 'Save' }).tap();
   * await expect(app.getByRole('checkbox', { name: 'I accept the terms', checked: true })).toBeVisible();
   * ```
   */
  getByRole(role: Role, opts: RoleOptions = {}): L {
    if (!(ROLES as readonly string[]).includes(role)) {
      const near = typeof role === 'string' ? nearest(role, ROLES) : undefined;
      throw new NestwrightError(
        'getByRole',
        `unknown role ${JSON.stringify(role)}${near ? `; did you mean '${near}'?` : '.'} The roles are ${ROLES.join(', ')}.`,
        { code: 'USAGE' },
      );
    }
    const { name, exact, ...states } = opts;
    return this.chain([
      { kind: 'role', role, ...(name !== undefined ? { name: textMatch(name, exact) } : {}), ...states },
    ]);
  }
  /**
   * A locator from a selector string: parts joined by `>>`, each one of `text=…`, `desc=…`,
   * `id=…`, `class=…`, `role=…[…]`, `has-text=…`, `nth=…`; each part searches below the previous
   * one's matches. A malformed selector throws at once (`app.locator: …`).
   *
   * @example
   * ```ts
   * await app.locator('id=note_row >> text=Buy milk').tap();
   * await app.locator('id=note_row >> nth=0').tap();
   * ```
   */
  locator(selector: string): L {
    return this.chain(parseSelector(selector));
  }
}

/**
 * The `getBy*` methods of the whole screen: App's member, whose locators start from the screen
 * (`make` builds one from its steps). Locator narrows below its matches by extending the factory.
 */
export class ScreenLocators<L> extends LocatorFactory<L> {
  constructor(private readonly make: (steps: Step[]) => L) {
    super();
  }
  protected chain(steps: Step[]): L {
    return this.make(steps);
  }
}
