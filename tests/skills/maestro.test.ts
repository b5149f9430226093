import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { importMaestro } from '../../framework/skills/maestro.js';
import { childEnv } from '../inline-run.js';
import { ROOT } from '../framework/inline.js';

/**
 * Maestro flows, written the way Maestro's documentation writes them (a config section, `---`,
 * commands; `runFlow` with `env`; selectors as strings or maps), imported as skills and run.
 */

const CONTACTS = `appId: com.android.contacts
---
- launchApp
- tapOn:
    id: .*floating_action_button.* #regex
- inputText: "John"
- tapOn: "Last Name"
- inputText: "Snow"
- tapOn: .*Save.*
`;

test('a flow from the docs: every command imported or reported at its line, with the reason', () => {
  const r = importMaestro(CONTACTS, 'contacts.yaml');
  expect(r.problems).toEqual([
    {
      file: 'contacts.yaml',
      line: 4,
      command: 'tapOn',
      reason: 'id pattern ".*floating_action_button.*": ids are matched exactly in a skill; write the id itself',
    },
  ]);
  expect(r.skill!.steps).toEqual([
    { launch: true },
    { fill: { target: 'role=textbox[focused=true]', value: 'John' } },
    { tap: ['text="Last Name"', 'desc="Last Name"'] },
    { fill: { target: 'role=textbox[focused=true]', value: 'Snow' } },
    { tap: ['text=/^(?:.*Save.*)$/i', 'desc=/^(?:.*Save.*)$/i'] },
  ]);
  expect(r.notes.map((n) => `${n.line} ${n.command}`)).toEqual(['6 inputText', '8 inputText']);
});

test('unsupported commands, selectors and configuration are each reported, nothing dropped silently', () => {
  const r = importMaestro(
    `appId: com.nestwright.notes
onFlowStart:
  - runScript: setup.js
---
- takeScreenshot: home
- tapOn:
    point: 50%,50%
- tapOn:
    text: Save
    below: Title
- pressKey: volume up
- runFlow:
    when:
      visible: Rate
    file: rate.yaml
- swipe:
    direction: LEFT
- back
- eraseText: 10
`,
    'all.yaml',
  );
  expect(r.problems.map((p) => `${p.line} ${p.command}`)).toEqual([
    '2 onFlowStart',
    '5 takeScreenshot',
    '6 tapOn',
    '8 tapOn',
    '11 pressKey',
    '12 runFlow',
    '16 swipe',
  ]);
  expect(r.problems.find((p) => p.line === 8)!.reason).toContain('selector `below` has no equivalent');
  expect(r.skill!.steps).toEqual([{ press: 'back' }, { clear: 'role=textbox[focused=true]' }]);
  expect(r.notes.map((n) => n.reason)).toEqual(['eraseText 10: the skill clears the whole field']);
  expect(importMaestro('- tapOn: x\n', 'no-app.yaml').problems[0]).toMatchObject({ line: 1, command: 'appId' });
  expect(importMaestro('appId: a.b\n---\n- tapOn: [\n', 'bad.yaml').problems[0]).toMatchObject({ command: '(yaml)' });
});

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/nestwright.js'), ...args], {
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

test('nestwright import maestro: a flow with runFlow and env becomes two skills, and the imported skill runs', async () => {
  test.setTimeout(480_000);
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-maestro-'));
  try {
    await writeFile(
      path.join(dir, 'NewNote.yaml'),
      `appId: com.nestwright.notes
---
- launchApp
- tapOn: "New note"
- tapOn:
    id: "title"
- inputText: \${TITLE}
`,
    );
    await writeFile(
      path.join(dir, 'AddNote.yaml'),
      `appId: com.nestwright.notes
name: Add note
env:
  TITLE: Groceries
---
- runFlow:
    file: NewNote.yaml
    env:
      TITLE: \${TITLE}
- tapOn: Save
- waitForAnimationToEnd
- assertVisible: \${TITLE}
- assertNotVisible: "No notes yet"
- tapOn:
    text: \${TITLE}
- assertVisible:
    id: "toolbar_title"
- back
- scrollUntilVisible:
    element:
      text: "New note"
    direction: DOWN
`,
    );
    const out = path.join(dir, 'skills/add-note.yaml');
    const imported = await cli([
      'import',
      'maestro',
      path.join(dir, 'AddNote.yaml'),
      '-o',
      out,
      '--apk',
      path.join(ROOT, 'fixtures/apks/notes.apk'),
    ]);
    expect(imported.err).toBe('');
    expect(imported.code).toBe(0);
    const skill = parseSkill(await readFile(out, 'utf8'), out);
    expect(skill).toMatchObject({
      name: 'add-note',
      app: 'com.nestwright.notes',
      params: { TITLE: { default: 'Groceries' } },
    });
    expect(skill.steps[0]).toMatchObject({
      kind: 'run',
      run: { skill: 'newnote.yaml', params: { TITLE: '${TITLE}' } },
    });
    expect(parseSkill(await readFile(path.join(dir, 'skills/newnote.yaml'), 'utf8'), 'newnote.yaml').params).toEqual({
      TITLE: { type: 'string' },
    });

    const ran = await cli(['skill', 'run', out, '--param', 'TITLE=Imported note']);
    expect(ran.err).toBe('');
    expect(ran.out).toContain('passed: add-note');
    expect(ran.code).toBe(0);

    const bad = await cli(['import', 'maestro', path.join(dir, 'missing.yaml'), '-o', out]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('no flow file');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
