import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { test, expect } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps } from '../../device-runtime/protocol/selector.js';
import { parseSkill, skillScope } from '../../device-runtime/protocol/skill/index.js';
import { fromWireSteps, toWireSteps, WireStepSchema } from '../../device-runtime/protocol/wire-steps.js';
import { parseFlow } from '../../framework/maestro/parse.js';
import { matchSelector, readSelector } from '../../framework/maestro/selector.js';
import { importMaestro } from '../../framework/skills/maestro.js';
import { ROOT } from '../framework/inline.js';

/**
 * What real suites use and skills used to leave out (issue 48, item 18): relative selectors and
 * states, `repeat` with `while` or a computed `times`, screen-wide `scroll`/`swipe`,
 * `inputRandom*`, `launchApp`/`stopApp` naming the flow's own app, and YAML 1.1 numbers
 * (`10_000`), imported as skill steps with Maestro's meaning.
 */

const node = (id: string, over: Partial<UiNode>): UiNode => ({
  id,
  role: 'text',
  text: null,
  desc: null,
  bounds: [0, 0, 100, 100],
  clickable: false,
  editable: false,
  scrollable: false,
  enabled: true,
  focused: false,
  selected: false,
  parent: null,
  ...over,
});

// A form: labels above fields, a row with a checkbox, a list.
const screen: UiNode[] = [
  node('list', { role: 'list', bounds: [0, 0, 1080, 2000], scrollable: true }),
  node('email-label', { text: 'Email', bounds: [0, 100, 500, 150], parent: 'list' }),
  node('email', { role: 'textbox', res_id: 'com.x:id/field', bounds: [0, 160, 500, 260], parent: 'list' }),
  node('name-label', { text: 'Name', bounds: [0, 300, 500, 350], parent: 'list' }),
  node('name', { role: 'textbox', res_id: 'com.x:id/field', bounds: [0, 360, 500, 460], parent: 'list' }),
  node('row', { role: 'group', res_id: 'com.x:id/row', bounds: [0, 500, 1080, 600], parent: 'list' }),
  node('terms', { text: 'Terms', bounds: [0, 500, 500, 600], parent: 'row' }),
  node('box', { role: 'checkbox', desc: 'Accept', bounds: [600, 500, 700, 600], parent: 'row', checked: true }),
  node('save', { role: 'button', text: 'Save', bounds: [0, 700, 500, 800], parent: 'list', enabled: false }),
];

async function flows(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-maestro-cov-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

test('relative selectors and states import as selector relations that find what the runner finds', async () => {
  const selectors = [
    { id: 'field', below: 'Name' },
    { id: 'field', above: 'Name' },
    { id: 'field', below: { text: 'Email' }, index: 1 },
    { leftOf: 'Accept' },
    { rightOf: 'Terms' },
    { text: 'Terms', childOf: { id: 'row' } },
    { containsChild: 'Terms' },
    { id: 'row', containsDescendants: ['Terms', 'Accept'] },
    { checked: true },
    { text: 'Save', enabled: false },
    { id: 'field', below: { text: 'Email', rightOf: { id: 'nope' } } },
  ];
  const dir = await flows({
    'form.yaml': `appId: com.x\n---\n${selectors.map((s) => `- tapOn: ${JSON.stringify(s)}`).join('\n')}\n`,
  });
  try {
    const r = importMaestro(path.join(dir, 'form.yaml'));
    expect(r.problems).toEqual([]);
    const steps = r.skills[0]!.skill!.steps as Array<{ tap: string | string[] }>;
    // Maestro acts on the first match: nth=0 where a relation may match several (a locator is strict).
    expect(steps[0]!.tap).toBe('id=field >> below=["text=/^(?:Name)$/is","desc=/^(?:Name)$/is"] >> nth=0');
    // Each alternative of a target, resolved by the protocol's engine, finds the runner's first match.
    steps.forEach((step, i) => {
      const want = matchSelector(screen, readSelector(selectors[i]))[0]?.id ?? null;
      const alternatives = typeof step.tap === 'string' ? [step.tap] : step.tap;
      const got = alternatives.map((s) => resolveSteps(screen, parseSelector(s))[0]?.id).find(Boolean) ?? null;
      expect({ i, got }).toEqual({ i, got: want });
    });
    expect(steps.map((s) => s.tap).slice(3, 6)).toEqual([
      'left-of=["text=/^(?:Accept)$/is","desc=/^(?:Accept)$/is"] >> nth=0',
      'right-of=["text=/^(?:Terms)$/is","desc=/^(?:Terms)$/is"] >> nth=0',
      ['text=/^(?:Terms)$/is >> child-of="id=row" >> nth=0', 'desc=/^(?:Terms)$/is >> child-of="id=row" >> nth=0'],
    ]);
    for (const s of r.skills) parseSkill(stringify(s.skill), s.target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('selector relations: nearest first, alternatives as the anchor, the >> inside a quoted anchor, bad values named', () => {
  const ids = (sel: string) => resolveSteps(screen, parseSelector(sel)).map((n) => n.id);
  expect(ids('below="text=Email" >> id=field')).toEqual([]); // a step after a relation searches inside its matches
  expect(ids('id=field >> below="text=Email"')).toEqual(['email', 'name']); // after an id: the id's order
  expect(ids('below="text=Email" >> role=textbox')).toEqual([]);
  expect(ids('below="text=Email" >> nth=1')).toEqual(['name-label']); // first in a chain: nearest first
  expect(ids('id=field >> below=["text=Nope","text=Name"]')).toEqual(['name']);
  expect(ids('below="text=Nope"')).toEqual([]);
  expect(ids('has-child="text=Terms >> nth=0"')).toEqual(['row']);
  expect(ids('role=checkbox >> checked=true')).toEqual(['box']);
  expect(ids('scrollable=true >> nth=0')).toEqual(['list']);
  expect(() => parseSelector('below=text=Email')).toThrow(/below= takes a quoted selector/);
  expect(() => parseSelector('checked=yes')).toThrow(/checked= takes true or false/);
  // The selector_actions extension carries relations whole.
  const steps = parseSelector('text=/^Save$/i >> below=["id=field","desc=x"] >> enabled=false');
  const wire = toWireSteps(steps);
  for (const w of wire) WireStepSchema.parse(w);
  expect(resolveSteps(screen, fromWireSteps(JSON.parse(JSON.stringify(wire))))).toEqual(resolveSteps(screen, steps));
});

test('repeat with while or a computed times, screen swipes, inputRandom*, the flow app named, pressKey { key }, assertWithAI, 10_000 import as steps', async () => {
  const dir = await flows({
    'loop.yaml': `appId: com.x
---
- launchApp:
    appId: com.x
- repeat:
    while:
      notVisible: "Done"
    commands:
      - scroll
- repeat:
    times: \${output.count}
    while:
      true: \${output.n < 3}
    commands:
      - evalScript: \${output.n++}
- repeat:
    times: 2
    commands:
      - swipe:
          direction: LEFT
- swipe:
    start: 50%, 80%
    end: 50%, 20%
- inputRandomEmail
- inputRandomNumber:
    length: 4
- inputRandomPersonName
- inputRandomText
- extendedWaitUntil:
    visible: Done
    timeout: 10_000
- stopApp: com.x
- killApp:
    appId: com.other
- pressKey:
    key: Enter
- assertWithAI: The list is sorted by date
- assertWithAI:
    assertion: The total is 42
    optional: false
`,
  });
  try {
    const r = importMaestro(path.join(dir, 'loop.yaml'));
    const rel = (f: string) => path.relative(dir, path.resolve(f));
    // Only another app stays out.
    expect(r.problems.map((p) => `${rel(p.file)}:${p.line} ${p.command}: ${p.reason}`)).toEqual([
      'loop.yaml:33 killApp: killApp of com.other: a skill drives one app (com.x)',
    ]);
    const skill = (t: string) => r.skills.find((s) => s.target === t)!.skill!;
    const steps = skill('loop.yaml').steps as Array<Record<string, unknown>>;
    expect(steps.slice(0, 6)).toEqual([
      { launch: true },
      {
        run: {
          skill: 'loop-repeat-line-5.yaml',
          params: {},
          while: { hidden: ['text=/^(?:Done)$/is', 'desc=/^(?:Done)$/is'] },
        },
      },
      {
        run: {
          skill: 'loop-repeat-line-10.yaml',
          params: {},
          times: '${output.count}',
          while: { true: '${output.n < 3}' },
        },
      },
      // A small fixed count is written out, as before.
      { swipe: { direction: 'left' } },
      { swipe: { direction: 'left' } },
      { swipe: { direction: 'up', distance: 0.6 } },
    ]);
    expect(skill('loop-repeat-line-5.yaml').steps).toEqual([{ swipe: { direction: 'up' } }]);
    expect(steps[10]).toEqual({
      wait_for: { visible: ['text=/^(?:Done)$/is', 'desc=/^(?:Done)$/is'] },
      timeout: 10000,
    });
    expect(steps[11]).toEqual({ stop_app: true });
    // pressKey as a map, as Maestro's YamlPressKey reads it too.
    expect(steps[12]).toEqual({ press: 'enter' });
    // assertWithAI: the model's verdict (app.ai.assert), optional unless it says not, as in Maestro.
    expect(steps.slice(13)).toEqual([
      { ai_assert: 'The list is sorted by date', optional: true },
      { ai_assert: 'The total is 42' },
    ]);
    // inputRandom*: the runner's values, computed when the step runs.
    const scope = skillScope();
    try {
      const typed: string[] = [];
      for (const s of steps.slice(6, 10)) {
        const fill = s.fill as { target: string; value: string };
        expect(fill.target).toBe('role=textbox[focused=true]');
        typed.push(await scope.interpolate(fill.value, 'x'));
      }
      expect(typed[0]).toMatch(/^[a-z]{8}@example\.com$/);
      expect(typed[1]).toMatch(/^\d{4}$/);
      expect(typed[2]).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
      expect(typed[3]).toMatch(/^[a-z]{8}$/);
    } finally {
      scope.dispose();
    }
    for (const s of r.skills) parseSkill(stringify(s.skill), s.target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('YAML 1.1 numbers: Maestro reads timeout: 10_000 as 10000 (Jackson); other text stays text', () => {
  const f = parseFlow(
    'appId: x\n---\n- extendedWaitUntil:\n    visible: A\n    timeout: 300_000\n- inputText: 1_2a\n- inputText: "1_000"\n',
    'f.yaml',
  );
  expect(f.issues).toEqual([]);
  expect(f.commands.map((c) => c.arg)).toEqual([{ visible: 'A', timeout: 300000 }, '1_2a', '1_000']);
});

test('nestwright import maestro loads no Playwright (an import needs the planner and the importer, not the replay)', () => {
  // Loading Playwright was most of the command's start-up; its CommonJS modules show in require's cache.
  const probe = `await import(${JSON.stringify(path.join(ROOT, 'cli/commands/import-maestro.ts'))});
const { createRequire } = await import('node:module');
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(loaded.filter((k) => /node_modules[\\/](@?playwright[^\\/]*)[\\/]/.test(k))));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual([]);
});
