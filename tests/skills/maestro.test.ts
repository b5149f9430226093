import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps } from '../../device-runtime/protocol/selector.js';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { importMaestro } from '../../framework/skills/maestro.js';
import { childEnv } from '../inline-run.js';
import { ROOT } from '../framework/inline.js';
import { nestwrightBin } from '../child-bundle.js';

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

async function flows(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nw-maestro-unit-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

test('a flow from the docs: every command imported or reported at its file and line, with Maestro semantics', async () => {
  const dir = await flows({ 'contacts.yaml': CONTACTS });
  try {
    const r = importMaestro(path.join(dir, 'contacts.yaml'));
    expect(r.problems).toEqual([]);
    const steps = r.skills[0]!.skill!.steps as Array<Record<string, unknown>>;
    // An id pattern: Maestro's whole-id regex, over the full id or the name after `:id/`.
    const fab = String(steps[1]!.tap);
    expect(fab).toBe('id=/(?<![\\s\\S])(?:.*floating_action_button.*)(?![\\s\\S])/ims');
    const node = (id: string) => ({ id, res_id: id }) as unknown as UiNode;
    const nodes = [node('com.android.contacts:id/floating_action_button'), node('com.android.contacts:id/toolbar')];
    expect(resolveSteps(nodes, parseSelector(fab)).map((n) => n.id)).toEqual([
      'com.android.contacts:id/floating_action_button',
    ]);
    expect(steps.filter((_, i) => i !== 1)).toEqual([
      { launch: true },
      { fill: { target: 'role=textbox[focused=true]', value: 'John' } },
      // Whole text, case-insensitive, dot matches line breaks: Maestro's text semantics.
      { tap: ['text=/^(?:Last Name)$/is', 'desc=/^(?:Last Name)$/is'] },
      { fill: { target: 'role=textbox[focused=true]', value: 'Snow' } },
      { tap: ['text=/^(?:.*Save.*)$/is', 'desc=/^(?:.*Save.*)$/is'] },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sub-flows: a bad one is reported and the others imported, none share a file; appId and values from --env; retry and when', async () => {
  const dir = await flows({
    'main.yaml': `appId: \${APP_ID}
---
- runFlow: a/main.yml
- runFlow: b/main.yml
- runFlow: c/main.yml
- runFlow:
    when:
      visible: "Rate us"
    commands:
      - tapOn: "Later"
- retry:
    maxRetries: 2
    commands:
      - tapOn:
          id: "com.x:id/sync"
- tapOn: (?i)Sign in as \${USER}
- evalScript: \${output.n = 1}
`,
    'a/main.yml': 'appId: x\n---\n- tapOn: A\n',
    'b/main.yml': 'appId: x\n---\n- tapOn:\n    point: "oops"\n',
    'c/main.yml': 'appId: x\n---\n- tapOn: C\n- hideKeyboard\n',
  });
  try {
    const r = importMaestro(path.join(dir, 'main.yaml'), { env: { APP_ID: 'com.x', USER: 'ana' } });
    const rel = (f: string) => path.relative(dir, path.resolve(f));
    expect(r.problems.map((p) => `${rel(p.file)}:${p.line} ${p.command}`)).toEqual([
      'b/main.yml:3 tapOn',
      'b/main.yml:1 (flow)',
      'main.yaml:4 runFlow',
    ]);
    expect(r.skills.map((s) => s.target).sort()).toEqual([
      'a-main.yaml',
      'b-main.yaml',
      'c-main.yaml',
      'main-retry-line-11.yaml',
      'main-runflow-line-6.yaml',
      'main.yaml',
    ]);
    const main = r.skills.find((s) => s.target === 'main.yaml')!.skill!;
    expect(main.app).toBe('com.x');
    expect(main.steps).toEqual([
      { run: { skill: 'a-main.yaml', params: {} } },
      { run: { skill: 'c-main.yaml', params: {} } },
      {
        run: { skill: 'main-runflow-line-6.yaml', params: {} },
        when: { visible: ['text=/^(?:Rate us)$/is', 'desc=/^(?:Rate us)$/is'] },
      },
      { run: { skill: 'main-retry-line-11.yaml', params: {} }, retries: 2 },
      { tap: ['text=/^(?:Sign in as ana)$/is', 'desc=/^(?:Sign in as ana)$/is'] },
      { script: 'output.n = 1' },
    ]);
    expect(r.skills.find((s) => s.target === 'c-main.yaml')!.skill!.steps).toEqual([
      { tap: ['text=/^(?:C)$/is', 'desc=/^(?:C)$/is'] },
      { hide_keyboard: true },
    ]);
    expect(r.skills.find((s) => s.target === 'main-retry-line-11.yaml')!.skill!.steps).toEqual([
      { tap: 'id=com.x:id/sync' },
    ]);
    // Every skill made parses with the one schema.
    for (const s of r.skills) if (s.skill) parseSkill(stringify(s.skill), s.target);
    expect(r.skills.find((s) => s.target === 'b-main.yaml')!.skill).toBeNull();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('JavaScript imports as script steps, ${expressions} and true checks; copyTextFrom and pasteText as copy_text and fill', async () => {
  const dir = await flows({
    'main.yaml': `appId: com.x
---
- runScript:
    file: setup.js
    env:
      NAME: ana
- evalScript: \${output.greeting = 'Hi ' + output.user}
- assertTrue: \${output.user == 'ana'}
- runFlow:
    when:
      true: \${output.user != null}
    commands:
      - tapOn: Later
- tapOn: \${output.greeting}
- copyTextFrom:
    id: title
- tapOn: Search
- pasteText
- inputText: \${maestro.copiedText + '!'}
`,
    'setup.js': 'output.user = NAME;\n',
  });
  try {
    const r = importMaestro(path.join(dir, 'main.yaml'));
    expect(r.problems).toEqual([]);
    const main = r.skills.find((s) => s.target === 'main.yaml')!.skill!;
    expect(main.params).toEqual({});
    expect(main.steps).toEqual([
      { script: { code: 'output.user = NAME;\n', env: { NAME: 'ana' } } },
      { script: "output.greeting = 'Hi ' + output.user" },
      { assert: { true: "${output.user == 'ana'}" } },
      { run: { skill: 'main-runflow-line-9.yaml', params: {} }, when: { true: '${output.user != null}' } },
      { tap: ['text=/^(?:${output.greeting})$/is', 'desc=/^(?:${output.greeting})$/is'] },
      { copy_text: 'id=title' },
      { tap: ['text=/^(?:Search)$/is', 'desc=/^(?:Search)$/is'] },
      { fill: { target: 'role=textbox[focused=true]', value: '${maestro.copiedText}' } },
      { fill: { target: 'role=textbox[focused=true]', value: "${maestro.copiedText + '!'}" } },
    ]);
    for (const s of r.skills) if (s.skill) parseSkill(stringify(s.skill), s.target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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

test('nestwright import maestro: a flow with runFlow and env becomes two skills, and the imported skill runs (relative selectors, repeat while)', async () => {
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
# Relative selectors (selector relations in the skill).
- assertVisible:
    id: note_date
    below:
      text: \${TITLE}
    childOf:
      id: note_row
- tapOn:
    text: \${TITLE}
    childOf:
      id: note_row
- assertVisible:
    id: "toolbar_title"
- back
# repeat while: a loop the skill runs, its condition looked at before each turn.
- tapOn:
    id: overflow
- tapOn: Load sample notes
- evalScript: \${output.scrolls = 0}
- repeat:
    times: 20
    while:
      notVisible: "Sample note number 20"
    commands:
      - scroll
      - evalScript: \${output.scrolls = output.scrolls + 1}
- assertVisible: "Sample note number 20"
- assertTrue: \${output.scrolls > 0 && output.scrolls < 20}
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
