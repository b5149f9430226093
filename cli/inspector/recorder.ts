/**
 * What the inspector records: steps named by locators, written out as a Playwright-style spec
 * (`import { test, expect } from 'nestwright'`) or as a skill (skills/*.yaml). Both are text a
 * person reviews; nothing here talks to a device.
 */
export type RecordedStep =
  | { kind: 'tap' | 'long_press' | 'scroll_into_view'; selector: string; code: string }
  | { kind: 'fill'; selector: string; code: string; value: string }
  | { kind: 'press'; key: string }
  | { kind: 'assert_visible'; selector: string; code: string }
  | { kind: 'assert_text'; selector: string; code: string; value: string };

const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** A YAML scalar that reads back as the same string: JSON strings are valid YAML. */
const y = (s: string) => JSON.stringify(s);

export class Recording {
  readonly steps: RecordedStep[] = [];

  constructor(
    /** `use.apk` of the spec: an APK path or a package. */
    readonly app: string,
    /** The package, for the skill's `app:`. */
    readonly pkg: string,
  ) {}

  add(step: RecordedStep): void {
    this.steps.push(step);
  }

  undo(): void {
    this.steps.pop();
  }

  toSpec(title = 'recorded flow'): string {
    const lines = this.steps.map((s) => {
      switch (s.kind) {
        case 'tap':
          return `  await ${s.code}.tap();`;
        case 'long_press':
          return `  await ${s.code}.longPress();`;
        case 'scroll_into_view':
          return `  await ${s.code}.scrollIntoView();`;
        case 'fill':
          return `  await ${s.code}.fill(${q(s.value)});`;
        case 'press':
          return `  await app.press(${q(s.key)});`;
        case 'assert_visible':
          return `  await expect(${s.code}).toBeVisible();`;
        case 'assert_text':
          return `  await expect(${s.code}).toHaveText(${q(s.value)});`;
      }
    });
    return [
      `import { test, expect } from 'nestwright';`,
      ``,
      `test.use({ apk: ${q(this.app)} });`,
      ``,
      `test(${q(title)}, async ({ app }) => {`,
      ...lines,
      `});`,
      ``,
    ].join('\n');
  }

  toSkill(name = 'recorded-flow'): string {
    const steps = this.steps.map((s) => {
      switch (s.kind) {
        case 'tap':
        case 'long_press':
          return `  - ${s.kind}: ${y(s.selector)}`;
        case 'scroll_into_view':
          return `  - scroll_to: ${y(s.selector)}`;
        case 'fill':
          return `  - fill: { target: ${y(s.selector)}, value: ${y(s.value)} }`;
        case 'press':
          return `  - press: ${s.key}`;
        case 'assert_visible':
          return `  - assert: { visible: ${y(s.selector)} }`;
        case 'assert_text':
          return `  - assert: { text: { target: ${y(s.selector)}, value: ${y(s.value)} } }`;
      }
    });
    const apk = /\.(apk|apks|xapk)$/i.test(this.app) ? [`apk: ${y(this.app)}`] : [];
    return [`name: ${y(name)}`, `app: ${this.pkg}`, ...apk, `steps:`, ...steps, ``].join('\n');
  }
}
