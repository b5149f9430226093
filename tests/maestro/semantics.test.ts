import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { planFlow, resolveAppId } from '../../framework/maestro/plan.js';
import { FlowScript } from '../../framework/maestro/script.js';
import { matchSelector, maestroRegex, readSelector } from '../../framework/maestro/selector.js';

/** Maestro's selector, planner and JavaScript semantics, without a device. */

const SERVER = `require('node:http').createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => res.end(JSON.stringify({ method: req.method, got: body ? JSON.parse(body) : null })));
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port)); });`;

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

const screen: UiNode[] = [
  node('list', { role: 'list', bounds: [0, 0, 1080, 2000], scrollable: true }),
  node('a', { text: 'Price ($)', bounds: [0, 100, 500, 200], parent: 'list' }),
  node('b', { text: 'Line one\nline two', bounds: [0, 300, 500, 400], parent: 'list' }),
  node('c', {
    role: 'button',
    text: 'Save',
    bounds: [0, 500, 500, 600],
    parent: 'list',
    res_id: 'com.x:id/save',
    enabled: false,
  }),
  node('d', { role: 'button', text: 'Save', bounds: [0, 700, 500, 800], parent: 'list', res_id: 'com.x:id/save_2' }),
  node('e', { role: 'checkbox', desc: 'Terms', bounds: [600, 700, 700, 800], parent: 'list', checked: true }),
  node('f', { role: 'textbox', hint: 'Email address', bounds: [0, 900, 500, 1000], parent: 'list', editable: true }),
];
const ids = (sel: unknown) => matchSelector(screen, readSelector(sel)).map((n) => n.id);

test('text is a case-insensitive regex over the whole text, hint or description; dot matches line breaks', () => {
  expect(ids('save')).toEqual(['c', 'd']);
  expect(ids('Sav')).toEqual([]); // the whole text, not a substring
  expect(ids('Line one.line two')).toEqual(['b']);
  expect(ids('Line one line two')).toEqual(['b']); // line breaks read as spaces too
  expect(ids('Price ($)')).toEqual(['a']); // a text equal to the pattern matches
  expect(ids('email.*')).toEqual(['f']); // the hint
  expect(ids('terms')).toEqual(['e']); // the description
});

test('Java inline flags and quoting become JavaScript', () => {
  expect(maestroRegex('(?i)SAVE').test('save')).toBe(true);
  expect(maestroRegex('(?is)hello.*world').test('Hello\nWorld')).toBe(true);
  expect(maestroRegex('(?-i)Save').test('save')).toBe(false);
  expect(maestroRegex('\\QPrice ($)\\E').test('Price ($)')).toBe(true);
  expect(maestroRegex('(?si)(Hello|Good (morning|evening)),\\s*\\S.*').test('Good morning, Ana')).toBe(true);
  expect(maestroRegex('[unclosed').test('[unclosed')).toBe(true); // not a regex: matched literally
  expect(maestroRegex('a++b').test('aab')).toBe(true);
});

test('ids match the full resource id or the name after the slash; states and relatives filter', () => {
  expect(ids({ id: 'save' })).toEqual(['c']);
  expect(ids({ id: 'com.x:id/save_2' })).toEqual(['d']);
  expect(ids({ id: 'save.*' })).toEqual(['c', 'd']);
  expect(ids({ text: 'Save', enabled: true })).toEqual(['d']);
  expect(ids({ id: 'save', text: 'Save' })).toEqual(['c']);
  expect(ids({ text: 'Save', below: 'Line one.*' })).toEqual(['c', 'd']);
  expect(ids({ text: 'Save', above: { id: 'save_2' } })).toEqual(['c']);
  // Maestro's Filters compare left (top) edges and, a side first, order by distance: the list
  // (left edge 0, centre nearest) comes before the Save button.
  expect(ids({ leftOf: 'Terms' }).slice(0, 2)).toEqual(['list', 'd']);
  expect(ids({ below: 'Price ($)' })).toEqual(['b', 'c', 'd', 'e', 'f']); // tops below the anchor's top, nearest first
  expect(ids({ rightOf: { id: 'save_2' } })).toEqual(['e']);
  expect(ids({ text: 'Save', index: 1 })).toEqual(['d']);
  expect(ids({ childOf: { id: 'nope' } })).toEqual([]);
  expect(ids({ containsChild: 'Terms' })).toEqual(['list']);
  expect(ids({ containsDescendants: ['Terms', 'Price ($)'] })).toEqual(['list']);
  expect(ids({ checked: true })).toEqual(['e']);
  expect(() => readSelector({ colour: 'red' })).toThrow(/unknown key `colour`/);
});

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'maestro-plan-'));
});
test.afterAll(() => rm(dir, { recursive: true, force: true }));

test('the planner reads sub-flows and scripts, collects every problem at its file and line, and keeps the rest', async () => {
  await mkdir(path.join(dir, 'a'), { recursive: true });
  await mkdir(path.join(dir, 'b'), { recursive: true });
  await writeFile(path.join(dir, 'a', 'main.yml'), 'appId: x\n---\n- tapOn: A\n');
  await writeFile(path.join(dir, 'b', 'main.yml'), 'appId: x\n---\n- tapOn:\n    point: "here"\n- back\n');
  await writeFile(path.join(dir, 'setup.js'), 'output.ready = true;\n');
  await writeFile(path.join(dir, 'loop.yaml'), 'appId: x\n---\n- runFlow: loop.yaml\n');
  await writeFile(
    path.join(dir, 'flow.yaml'),
    'appId: ${APP_ID}\nenv:\n  USER: ana\n---\n- runFlow: a/main.yml\n- runFlow: b/main.yml\n- runScript: setup.js\n- runFlow:\n    when:\n      platform: Android\n    commands:\n      - tapOn: "${USER}"\n      - zoom: in\n- runFlow: loop.yaml\n',
  );
  const plan = planFlow(path.join(dir, 'flow.yaml'));
  const rel = (f: string) => path.relative(dir, path.resolve(f));
  expect(plan.issues.map((i) => `${rel(i.file)}:${i.line} ${i.command}`)).toEqual([
    'b/main.yml:3 tapOn',
    'flow.yaml:13 zoom',
    'loop.yaml:3 runFlow',
  ]);
  expect(plan.issues[2]!.reason).toContain('the flow runs itself');
  const cmds = plan.flow!.commands;
  expect(cmds.map((c) => c.name)).toEqual(['runFlow', 'runFlow', 'runScript', 'runFlow', 'runFlow']);
  expect(cmds[0]!.flow!.commands.map((c) => c.line)).toEqual([3]);
  expect(cmds[1]!.flow!.commands.map((c) => c.name)).toEqual(['back']); // the bad command reported, the rest kept
  expect(cmds[2]!.script!.code).toContain('output.ready');
  expect(cmds[3]!.children!.map((c) => `${c.name}:${c.line}`)).toEqual(['tapOn:12']);
  expect(resolveAppId(plan.flow!.appId, { APP_ID: 'com.example' })).toEqual({ appId: 'com.example' });
  expect(resolveAppId(plan.flow!.appId, {})).toEqual({ error: expect.stringContaining('--env APP_ID=<package>') });
});

test('JavaScript: one scope per run, variables as globals, ${} expressions, a time limit, synchronous http', async () => {
  // The script's http is synchronous, as in Maestro: the script waits on its thread for the answer.
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((r) => server.stdout.once('data', (d) => r(String(d).trim())));
  const url = `http://127.0.0.1:${port}`;
  try {
    const lines: string[] = [];
    const js = new FlowScript(3000, (l) => lines.push(l));
    js.setVariables({ NAME: 'Ana', URL: url });
    expect(await js.interpolate('Hello ${NAME}, ${1 + 2} ${ {a: 1}.a }', 'x')).toBe('Hello Ana, 3 1');
    await js.run('output.user = { id: 7 }; maestro.copiedText = "copied"', 's.js');
    expect(await js.interpolate('${output.user.id}-${maestro.copiedText}', 'x')).toBe('7-copied');
    await js.run(
      'const r = http.post(URL + "/users", { body: { name: NAME } }); output.reply = json(r.body); console.log(r.status)',
      'http.js',
    );
    expect((await js.output()).reply).toEqual({ method: 'POST', got: { name: 'Ana' } });
    expect(lines).toEqual(['200']);
    await expect(js.run('while (true) {}', 'loop.js')).rejects.toThrow(
      'loop.js: the script ran longer than 3000ms and was stopped',
    );
    // The scope goes on after a stopped script, with what it had.
    expect(await js.interpolate('${output.user.id}-${maestro.copiedText}-${NAME}', 'x')).toBe('7-copied-Ana');
    await expect(js.run('require("fs")', 'escape.js')).rejects.toThrow(/'?require'? is not defined/);
    await expect(js.run('process.exit(1)', 'escape.js')).rejects.toThrow(/'?process'? is not defined/);
    js.dispose();
  } finally {
    server.kill();
  }
});
