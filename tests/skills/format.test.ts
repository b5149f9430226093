import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import {
  parseSkill,
  resolveParams,
  skillJsonSchema,
  SkillParamError,
  SkillParseError,
  substitute,
} from '../../device-runtime/protocol/skill/index.js';
import { ROOT } from '../framework/inline.js';

/** The skill format: one zod definition, YAML errors at file:line:column, parameters checked first. */

const GOOD = `name: add-note
app: com.nestwright.notes
params:
  title: { type: string, example: Buy milk }
  count: { type: number, default: 1 }
steps:
  - intent: open the editor
    tap: text=New note              # a selector
    post: [{ visible: id=title }]
  - fill: { target: id=title, value: "\${title}" }
  - tap: ['role=button[name="Save"]', text=Save]
    post: [{ visible: "text=\${title}" }, { activity: .MainActivity }]
  - when: { visible: text=Rate this app }
    tap: text=Not now
    optional: true
`;

function problems(text: string): string[] {
  try {
    parseSkill(text, 'skills/x.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(SkillParseError);
    return (e as SkillParseError).issues.map((i) => `${i.line}:${i.column} ${i.path}: ${i.message}`);
  }
  throw new Error('expected the skill to be rejected');
}

test("the issue's example parses into steps tagged with their kind", () => {
  const skill = parseSkill(GOOD, 'skills/add-note.yaml');
  expect(skill.steps.map((s) => s.kind)).toEqual(['tap', 'fill', 'tap', 'tap']);
  expect(skill.steps[0]).toMatchObject({ intent: 'open the editor', post: [{ kind: 'visible', visible: 'id=title' }] });
  expect(skill.steps[2]).toMatchObject({ tap: ['role=button[name="Save"]', 'text=Save'] });
  expect(skill.steps[3]).toMatchObject({ when: { kind: 'visible' }, optional: true });
});

test('every problem is reported at its file:line:column with its path', () => {
  const found = problems(`name: add-note
app: com.nestwright.notes
steps:
  - tap: text=New note
    fill: { target: id=title, value: x }
  - tapp: x
  - tap: role=button[nme="Save"]
  - post: [{ visibel: x }]
    press: back
  - press: banana
    timeout: -1
  - tap: 3
`);
  expect(found).toEqual([
    '4:5 steps[0]: a step has one action, this one has tap and fill; split it into 2 steps',
    expect.stringMatching(/^6:5 steps\[1\]: a step needs one of: launch, tap, long_press, fill/),
    expect.stringMatching(/^7:10 steps\[2\]\.tap: unknown role attribute \[nme\]/),
    '8:12 steps[3].post[0]: a check needs one of: visible, hidden, text, count, activity, true',
    expect.stringMatching(/^10:12 steps\[4\]\.press: Invalid option: expected one of "back"/),
    expect.stringMatching(/^11:14 steps\[4\]\.timeout: Too small/),
    expect.stringMatching(/^12:10 steps\[5\]\.tap: Invalid input: expected string/),
  ]);
});

test('YAML syntax errors and unknown keys come with their place too', () => {
  expect(problems('name: x\napp: com.a.b\nsteps:\n  - tap: [unclosed\n')[0]).toMatch(/^\d+:\d+ : /);
  expect(problems('name: x\napp: com.a.b\nstep:\n  - tap: a\n')).toEqual([
    '1:1 steps: Invalid input: expected array, received undefined',
    '3:1 : Unrecognized key: "step" (step)',
  ]);
  expect(problems('name: x\napp: com.a.b\nsteps:\n  - tap: a\n    intnet: typo\n')).toEqual([
    expect.stringMatching(/^5:5 steps\[0\]: Unrecognized key.*intnet/),
  ]);
});

test('a ${name} that is not a declared parameter is an error at its line', () => {
  expect(
    problems('name: x\napp: com.a.b\nparams: { title: {} }\nsteps:\n  - fill: { target: id=t, value: "${titel}" }\n'),
  ).toEqual(['5:34 steps[0].fill.value: ${titel} is not a parameter of this skill; its parameters are title']);
});

test('parameters: missing, ill-typed and unknown ones are named; strings are converted to the declared type', () => {
  const skill = parseSkill(GOOD, 'x.yaml');
  expect(resolveParams(skill, { title: 'Milk' })).toEqual({ title: 'Milk', count: 1 });
  expect(resolveParams(skill, { title: 'Milk', count: '3' })).toEqual({ title: 'Milk', count: 3 });
  let error: unknown;
  try {
    resolveParams(skill, { count: 'many', titel: 'Milk' });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SkillParamError);
  expect((error as SkillParamError).problems).toEqual([
    'unknown parameter "titel" (its parameters are title, count)',
    'missing parameter "title" (string, e.g. "Buy milk")',
    'parameter "count" must be a number, got "many"',
  ]);
  expect(() => resolveParams(skill, { title: 42 })).toThrow('parameter "title" must be a string, got 42');
  expect(substitute(skill.steps[2], { title: 'Milk' })).toMatchObject({
    post: [{ visible: 'text=Milk' }, { activity: '.MainActivity' }],
  });
});

test('every skill in skills/ parses, and skills/skill.schema.json is the schema derived from the zod definition', () => {
  const dir = path.join(ROOT, 'skills');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  expect(files.length).toBeGreaterThanOrEqual(4);
  for (const f of files) parseSkill(readFileSync(path.join(dir, f), 'utf8'), `skills/${f}`);
  const onDisk = JSON.parse(readFileSync(path.join(dir, 'skill.schema.json'), 'utf8'));
  expect(onDisk, 'regenerate with: npx nestwright skill schema -o skills/skill.schema.json').toEqual(skillJsonSchema());
  // The parser's `kind` is not part of the file format.
  expect(JSON.stringify(onDisk)).not.toContain('"kind"');
  // An editor's validator (ajv, draft 2020-12) accepts the example skills and rejects a two-action step.
  const validate = new Ajv2020({ strict: false }).compile(onDisk);
  for (const f of files)
    expect(validate(parse(readFileSync(path.join(dir, f), 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`).toBe(
      true,
    );
  expect(validate(parse('name: x\napp: com.a.b\nsteps:\n  - tap: x\n    fill: { target: y, value: z }\n'))).toBe(false);
});
