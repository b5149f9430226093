import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { toSelectorSyntax, trajectoryToSkill } from '../../framework/skills/record.js';
import type { TrajectoryStep } from '../../framework/core/trajectory.js';
import { ROOT } from '../framework/inline.js';
import { childEnv } from '../inline-run.js';
import { nestwrightBin } from '../child-bundle.js';

/** Recording: a passing test's trajectory becomes a skill, which replays green. */

function step(
  api: string,
  title: string,
  selector: string | null,
  extra: Partial<TrajectoryStep> = {},
): TrajectoryStep {
  const kind = api.startsWith('expect.')
    ? 'assertion'
    : api.startsWith('app.') && api !== 'app.press'
      ? 'app'
      : 'action';
  return {
    index: 0,
    kind,
    api,
    title,
    selector,
    node: null,
    before: 's_1',
    after: 's_2',
    screenshots: {},
    startedAt: 0,
    durationMs: 1,
    result: 'ok',
    error: null,
    source: 'locator',
    instance: 'i1',
    ...extra,
  };
}

test('locator descriptions become the selector syntax; filter() has none', () => {
  expect(toSelectorSyntax("text='New note'")).toBe('text=New note');
  expect(toSelectorSyntax('text="Draft"')).toBe('text="Draft"');
  expect(toSelectorSyntax("role=button[name='Save', disabled=false]")).toBe('role=button[name=Save][disabled=false]');
  expect(toSelectorSyntax('id=title >> nth=0')).toBe('id=title >> nth=0');
  expect(toSelectorSyntax("id=row >> filter(hasText='x')")).toBeNull();
});

test('typed texts become parameters named after their fields; post-checks from what became visible next', () => {
  const { skill, notes } = trajectoryToSkill(
    {
      meta: { package: 'com.nestwright.shop', instance: 'i1' },
      steps: [
        step('locator.fill', 'Type "ana@example.com" into id=email', 'id=email'),
        step('app.press', 'Press "back"', null),
        step('locator.fill', 'Type "••••" into id=password', 'id=password', {
          node: {
            id: 'n1',
            role: 'textbox',
            text: '••••',
            desc: null,
            bounds: [0, 0, 1, 1],
            clickable: true,
            editable: true,
            scrollable: false,
            enabled: true,
            focused: true,
            selected: false,
            password: true,
          },
        }),
        step('locator.tap', "Tap role=button[name='Log in']", "role=button[name='Log in']"),
        step('expect.toBeVisible', 'Expect text="ana@example.com" toBeVisible', 'text="ana@example.com"'),
        step('expect.toHaveText', 'Expect id=status toHaveText', 'id=status'),
        step('locator.tap', 'Tap text=Other', 'text=Other', { instance: 'i2' }),
      ],
    },
    { name: 'sign-in' },
  );
  expect(skill.params).toEqual({
    email: { type: 'string', example: 'ana@example.com' },
    password: { type: 'string', description: 'typed into a password field: no example is recorded' },
  });
  expect(skill.steps).toEqual([
    { fill: { target: 'id=email', value: '${email}' } },
    { press: 'back', post: [{ visible: 'id=password' }] },
    { fill: { target: 'id=password', value: '${password}' }, post: [{ visible: 'role=button[name=Log in]' }] },
    { tap: 'role=button[name=Log in]', post: [{ visible: 'text="${email}"' }] },
  ]);
  expect(notes).toEqual([
    '"Expect id=status toHaveText": its expected value is not in the trajectory; add the check to the step before it by hand',
    '"Tap text=Other" acts on another instance (i2); a skill drives one instance, so it was left out',
  ]);
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const bin = await nestwrightBin();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

test('nestwright skill record turns a passing example test into a skill, and the skill replays green', async () => {
  test.setTimeout(480_000);
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-record-'));
  try {
    const out = path.join(dir, 'edit-note.yaml');
    const rec = await cli(['skill', 'record', 'specs/notes.spec.ts', '--grep', 'edits a note', '-o', out]);
    expect(rec.err).toBe('');
    expect(rec.code).toBe(0);
    expect(rec.out).toContain('6 steps, parameters: title, title_2');
    const skill = parseSkill(await readFile(out, 'utf8'), out);
    expect(skill.steps.map((s) => s.kind)).toEqual(['tap', 'fill', 'tap', 'tap', 'fill', 'tap']);
    expect(skill.steps[5]).toMatchObject({ post: [{ visible: 'text="${title_2}"' }, { hidden: 'text="${title}"' }] });

    const ran = await cli(['skill', 'run', out, '--param', 'title=Groceries', '--param', 'title_2=Shopping list']);
    expect(ran.err).toBe('');
    expect(ran.out).toContain('passed: edit-note');
    expect(ran.code).toBe(0);

    const failing = await cli(['skill', 'record', 'specs/notes.spec.ts', '--grep', 'no such test', '-o', out]);
    expect(failing.code).toBe(1);
    expect(failing.err).toContain('no test in specs/notes.spec.ts matches --grep "no such test"');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
