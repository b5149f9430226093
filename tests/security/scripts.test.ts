import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import {
  FlowScript,
  parseSkill,
  resolveStep,
  runScriptStep,
  ScriptError,
  skillScope,
  type SkillStep,
} from '../../device-runtime/protocol/skill/index.js';
import { importCommand } from '../../cli/commands/import-maestro.js';
import { importMaestro } from '../../framework/skills/maestro.js';
import { childEnv } from '../inline-run.js';
import { ROOT } from '../framework/inline.js';

/**
 * Flow and skill scripts (`${…}`, `evalScript`, `runScript`, a skill's `script` steps) come with
 * flows copied from elsewhere, so they run in an isolate that has nothing of the host but
 * Maestro's script API. Each attack here is refused with a structured error (a ScriptError with
 * a code, naming the script), and the host is unharmed. The attacks that could hang or kill the
 * process that runs them run in a child process (script-attacks.ts) that this test kills if it
 * does not finish. `nestwright import maestro` copies no script from outside the suite's folder.
 */

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nw-sec-scripts-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The error a script call was refused with; fails the test when the call succeeded. */
async function refusal(run: () => unknown): Promise<ScriptError> {
  let value: unknown;
  try {
    value = await run();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(ScriptError);
    return e as ScriptError;
  }
  throw new Error(`the script was not refused: it gave ${JSON.stringify(value)}`);
}

/** What script-attacks.ts prints for each attack, and once after them. */
interface AttackLine {
  attack: string;
  refused?: boolean;
  code?: string;
  message?: string;
  value?: string;
  beside?: string;
}

/** Every object a script is handed, and the script's own global object. */
const HANDED = ['output', 'maestro', 'json', 'console.log', 'http.get', 'this'];

test('a ${…} expression cannot reach the process through the constructor of anything it is handed: no file is written', async () => {
  const file = path.join(dir, 'written-by-a-flow.txt');
  for (const via of HANDED) {
    const scope = new FlowScript(5000, () => {});
    const attack = `\${${via}.constructor.constructor('return process')().getBuiltinModule('fs').writeFileSync(${JSON.stringify(file)}, 'pwned')}`;
    const e = await refusal(() => scope.interpolate(`id-${attack}`, 'flow.yaml:3'));
    expect(e.code, e.message).toBe('SCRIPT_FAILED');
    expect(e.message).toMatch(/^flow\.yaml:3: ReferenceError: '?process'? is not defined$/);
    scope.dispose();
  }
  // The same through a skill step's value, resolved as both the replay and skill_run resolve it.
  const skill = parseSkill(
    `name: s\napp: com.example\nsteps:\n  - fill: { target: 'text=Name', value: "\${output.constructor.constructor('return process')().getBuiltinModule('fs').writeFileSync('${file}', 'x')}" }\n`,
    'skills/s.yaml',
  );
  const scope = skillScope();
  const e = await refusal(() => resolveStep(skill.steps[0]!, {}, scope, 'skills/s.yaml step 1'));
  expect(e.message).toContain('skills/s.yaml step 1');
  scope.dispose();
  expect(existsSync(file)).toBe(false);
});

test('a runScript and a skill script step cannot list /etc, and output stays the script’s own', async () => {
  const list = `output.etc = this.constructor.constructor('return process')().getBuiltinModule('fs').readdirSync('/etc')`;
  const scope = new FlowScript(5000, () => {});
  const e = await refusal(() => scope.run(list, 'setup.js'));
  expect(e.code).toBe('SCRIPT_FAILED');
  expect(e.message).toContain('setup.js: ');
  expect(await scope.output()).toEqual({});
  const step: Extract<SkillStep, { kind: 'script' }> = { kind: 'script', script: list };
  const skill = skillScope();
  await refusal(() => runScriptStep(step, skill, 'skills/s.yaml step 2'));
  expect(await skill.output()).toEqual({});
  // What the host reads of `output` is a copy: changing it changes nothing in the scope.
  await scope.run('output.user = { id: 7 }', 'a.js');
  ((await scope.output()) as { user: { id: number } }).user.id = 8;
  expect(await scope.interpolate('${output.user.id}', 'b.js')).toBe('7');
  scope.dispose();
  skill.dispose();
});

test('require, process, Function and module are not there', async () => {
  const scope = new FlowScript(5000, () => {});
  expect(
    await scope.interpolate(
      '${typeof require} ${typeof process} ${typeof module} ${typeof globalThis.process} ${Function("return typeof process")()}',
      'x.js',
    ),
  ).toBe('undefined undefined undefined undefined undefined');
  for (const code of [
    "require('node:fs').readdirSync('/etc')",
    'globalThis.process.exit(1)',
    "Function('return process')().exit(1)",
    "new Function('return require')()('node:fs')",
    "(async () => {}).constructor('return process')().then((p) => p.exit(1))",
  ]) {
    const e = await refusal(() => scope.run(code, 'escape.js'));
    expect(e.code, e.message).toBe('SCRIPT_FAILED');
  }
  scope.dispose();
});

test('the attacks that hang or exhaust a process are each stopped with a structured error, and the host carries on', async () => {
  test.setTimeout(120_000);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests/security/script-attacks.ts')], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  // Whatever an attack does, this test ends: a child still running after a minute is killed.
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exit = await new Promise<string>((r) => child.on('close', (code, signal) => r(signal ?? String(code))));
  clearTimeout(kill);
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AttackLine);
  const by = new Map(lines.map((l) => [l.attack, l]));
  // A QuickJS `new Array(1e6)` is sparse (a length, no elements): that bomb meets the time limit first on a slow machine.
  const expected: Record<string, string[]> = {
    'queued-job loop': ['SCRIPT_TIMEOUT'],
    'queued-job chain': ['SCRIPT_TIMEOUT'],
    'memory bomb': ['SCRIPT_MEMORY', 'SCRIPT_TIMEOUT'],
    'string bomb': ['SCRIPT_MEMORY'],
    'deep recursion': ['SCRIPT_STACK'],
    'deep native recursion': ['SCRIPT_STACK'],
    'dynamic import': ['SCRIPT_FAILED'],
  };
  const report = `exit ${exit}\n${out}\n${err.slice(-2000)}`;
  for (const [attack, codes] of Object.entries(expected)) {
    const line = by.get(attack);
    expect(line, `${attack} never answered: ${report}`).toBeTruthy();
    expect(line!.refused, `${attack}: ${JSON.stringify(line)}`).toBe(true);
    expect(codes, `${attack}: ${line!.message}`).toContain(line!.code);
    expect(line!.message).toContain(`${attack}.js: `);
  }
  expect(by.get('after')?.value, 'a script after the attacks runs as usual').toBe('2');
  expect(by.get('after')?.beside, "a flow's scope made before the attacks still runs scripts").toBe('3');
  expect(exit).toBe('0');
});

test('nestwright import maestro copies no script from outside the suite’s folder, through .. , an absolute path or a symlink', async () => {
  const suite = path.join(dir, 'suite');
  const outside = path.join(dir, 'outside');
  mkdirSync(path.join(suite, 'scripts'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  const secret = path.join(outside, 'secret.js');
  writeFileSync(secret, 'output.token = "SECRET-TOKEN-123"\n');
  writeFileSync(path.join(suite, 'scripts', 'setup.js'), 'output.ready = true\n');
  symlinkSync(secret, path.join(suite, 'scripts', 'link.js'));
  const up = path.relative(suite, secret);
  writeFileSync(
    path.join(suite, 'flow.yaml'),
    [
      'appId: com.example',
      '---',
      '- runScript: scripts/setup.js',
      `- runScript: ${up}`,
      `- runScript: ${secret}`,
      '- runScript:',
      '    file: scripts/link.js',
      `- runScript: ${path.relative(suite, '/etc/passwd')}`,
      '- tapOn: Save',
      '',
    ].join('\n'),
  );
  const r = importMaestro(path.join(suite, 'flow.yaml'));
  const refused = r.problems.filter((p) => p.code === 'SCRIPT_OUTSIDE_SUITE');
  expect(refused.map((p) => p.line)).toEqual([4, 5, 6, 8]);
  for (const p of refused) {
    expect(p.command).toBe('runScript');
    expect(p.reason).toContain(suite);
  }
  expect(refused[0]!.reason).toContain(secret);
  expect(refused[3]!.reason).toContain('/etc/passwd');
  const text = JSON.stringify(r.skills);
  expect(text).toContain('output.ready = true');
  expect(text).not.toContain('SECRET-TOKEN-123');
  expect(text).not.toContain('root:');

  // The command: the refusals are listed, the skill is written without them.
  const out = path.join(dir, 'skills', 'flow.yaml');
  const io = { text: '', out: (s: string) => void (io.text += s), err: (s: string) => void (io.text += s) };
  const code = await importCommand(['maestro', path.join(suite, 'flow.yaml'), '-o', out], io);
  expect(code, io.text).toBe(1);
  expect(io.text).toContain('SCRIPT_OUTSIDE_SUITE');
  const written = readFileSync(out, 'utf8');
  expect(written).toContain('output.ready = true');
  expect(written).not.toContain('SECRET-TOKEN-123');
  expect(written).not.toContain('root:');
});
