import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { childEnv } from '../inline-run.js';
import { makeProject, NOTES_APK } from '../mcp-agent/helpers.js';
import { startCommand } from './helpers.js';
import { nestwrightBin } from '../child-bundle.js';

test.describe.configure({ timeout: 240_000 });

/**
 * `nestwright record --app … -o skills/x.yaml`: the inspector on a live instance, what a person
 * does there (here through the page's own API, as the page calls it) recorded as skill steps,
 * written when the command stops; the written skill replays with `nestwright skill run`.
 */
test('record: taps and fills in the inspector become a skill, written on Ctrl-C, that replays', async () => {
  const project = await makeProject({});
  const rec = await startCommand(['record', '--app', NOTES_APK, '-o', 'skills/add-note.yaml'], project.dir);
  try {
    expect(rec.output()).toContain('Recording a skill of');
    const token = new URL(rec.url).searchParams.get('token')!;
    const api = async (route: string, body: Record<string, unknown>) => {
      const res = await fetch(new URL(`/api/${route}`, rec.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return res.json();
    };
    await api('act', { action: 'tap', selector: 'text=New note' });
    await api('act', { action: 'fill', selector: 'id=title', value: 'Recorded milk' });
    await api('act', { action: 'tap', selector: 'id=save' });
    const code = (await api('code', {})) as { skill: string; steps: number };
    expect(code.steps).toBe(3);
  } finally {
    rec.child.kill('SIGINT');
    await new Promise((r) => rec.child.once('exit', r));
  }
  expect(rec.output()).toContain('wrote skills/add-note.yaml: 3 steps');
  const file = path.join(project.dir, 'skills', 'add-note.yaml');
  const skill = parseSkill(await readFile(file, 'utf8'), file);
  expect(skill).toMatchObject({ name: 'add-note', app: 'com.nestwright.notes' });
  expect(skill.steps.map((s) => s.kind)).toEqual(['tap', 'fill', 'tap']);

  const replay = spawn(process.execPath, [await nestwrightBin(), 'skill', 'run', file, '--app', NOTES_APK], {
    cwd: project.dir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  replay.stdout!.on('data', (d) => (out += d));
  replay.stderr!.on('data', (d) => (out += d));
  const code = await new Promise<number>((r) => replay.once('exit', (c) => r(c ?? -1)));
  expect(code, out).toBe(0);
  await project.remove();
});

test('record: usage errors say what to give', async () => {
  const project = await makeProject({});
  for (const [args, message] of [
    [['--app', NOTES_APK], '-o skills/<name>.yaml'],
    [['--app', NOTES_APK, '-o', 'specs/x.yaml'], 'skills/'],
    [['-o', 'skills/x.yaml'], '--app path.apk or --package P'],
  ] as const) {
    const child = spawn(process.execPath, [await nestwrightBin(), 'record', ...args, '--no-open'], {
      cwd: project.dir,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number>((r) => child.once('exit', (c) => r(c ?? -1)));
    expect(code, err).toBe(2);
    expect(err).toContain(message);
  }
  await project.remove();
});
