import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { parseSkill, resolveParams } from '../device-runtime/protocol/skill/index.js';
import {
  connectDevice,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
} from '../device-runtime/providers/index.js';
import { replaySkill, type PlannedSkill } from '../framework/skills/index.js';
import { trajectoryToSkill } from '../framework/skills/record.js';
import { Space } from '../framework/core/space.js';
import { Trajectory } from '../framework/core/trajectory.js';
import { median, percentile, round, type BenchSection } from './section.js';

const NOTES_APK = 'fixtures/apks/notes.apk';
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

const TAP_SKILL = `name: open-editor
app: com.nestwright.notes
steps:
  - tap: text=New note
`;

/**
 * Skills against the same steps written as locators, in the same run on the same simulated
 * device (instant faults): one tap as a skill step vs the same locator tap; recording a 10-step
 * test's trajectory into a skill; and the requests a replay sends to a model endpoint (a local
 * stand-in for the Messages and Chat Completions APIs, set in ANTHROPIC_BASE_URL and
 * OPENAI_BASE_URL for the whole section, counting every request it gets).
 */
export async function benchSkills(): Promise<BenchSection> {
  let modelRequests = 0;
  const model = createServer((_, res) => {
    modelRequests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
  const saved = { a: process.env.ANTHROPIC_BASE_URL, o: process.env.OPENAI_BASE_URL };
  process.env.ANTHROPIC_BASE_URL = modelUrl;
  process.env.OPENAI_BASE_URL = `${modelUrl}/v1`;
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const rows: BenchSection['rows'] = [];
  try {
    const conn = await connectDevice({ provider: 'sim' });
    const space = await Space.create(conn.client, 'bench-skills');
    const trajectory = new Trajectory();
    const options = { actionTimeout: 5_000, expectTimeout: 5_000 };
    const app = await space.launch(NOTES_APK, trajectory, options);
    const back = () => conn.client.call('ui_key', { space_id: space.id, key: 'back' });
    const skill = parseSkill(TAP_SKILL, 'open-editor.yaml');
    const planned: PlannedSkill = {
      skill,
      path: 'open-editor.yaml',
      params: resolveParams(skill, {}),
      nested: new Map(),
    };

    // Interleaved, so both see the same machine: a locator tap, then the same tap as a skill step.
    const N = 40;
    const locator: number[] = [];
    const skillStep: number[] = [];
    for (let i = 0; i < N + 5; i++) {
      let t = performance.now();
      await app.getByText('New note').tap();
      if (i >= 5) locator.push(performance.now() - t);
      await back();
      t = performance.now();
      const r = await app.port.wrap('bench', {}, (call) => replaySkill(app.port, planned, call));
      if (!r.ok) throw r.error;
      if (i >= 5) skillStep.push(performance.now() - t);
      await back();
    }
    rows.push({ measure: 'tap text=New note: locator step in a spec', n: N, ...stats(locator), ratio: 1 });
    rows.push({
      measure: 'tap text=New note: skill step (replaySkill)',
      n: N,
      ...stats(skillStep),
      ratio: round(median(skillStep) / median(locator)),
    });

    // A 10-step test, run once for its trajectory; then the recording itself, timed.
    const rec = new Trajectory();
    const fresh = await space.launch(NOTES_APK, rec, options);
    for (const title of ['Milk', 'Eggs', 'Tea']) {
      await fresh.getByText('New note').tap();
      await fresh.getById('title').fill(title);
      await fresh.getByRole('button', { name: 'Save' }).tap();
    }
    await fresh.getByText('Milk', { exact: true }).tap();
    const body = { ...rec.toJSON(), meta: { package: fresh.package, instance: fresh.instance } };
    const actions = body.steps.filter((s) => s.kind === 'action').length;
    const record: number[] = [];
    let steps = 0;
    for (let i = 0; i < 205; i++) {
      const t = performance.now();
      const { skill: made } = trajectoryToSkill(body, { name: 'bench-recorded' });
      const text = stringify(made);
      parseSkill(text, 'recorded.yaml');
      if (i >= 5) record.push(performance.now() - t);
      steps = made.steps.length;
    }
    rows.push({
      measure: `record a ${actions}-step test's trajectory into a skill (${steps} steps; target < 1000 ms)`,
      n: 200,
      ...stats(record),
      ratio: '',
    });

    // Replay a recorded skill end to end, counting requests at the model stand-in.
    const recorded = trajectoryToSkill(body, { name: 'bench-recorded' }).skill;
    const replayed = parseSkill(stringify(recorded), 'recorded.yaml');
    await fresh.close();
    const before = modelRequests;
    const r = await app.port.wrap('bench', {}, (call) =>
      replaySkill(
        app.port,
        {
          skill: replayed,
          path: 'recorded.yaml',
          params: resolveParams(replayed, { title: 'Milk', title_2: 'Eggs', title_3: 'Tea' }),
          nested: new Map(),
        },
        call,
      ),
    );
    if (!r.ok) throw r.error;
    rows.push({
      measure: `requests to a model endpoint while replaying the ${replayed.steps.length}-step recorded skill`,
      n: 1,
      median_ms: '',
      p95_ms: '',
      ratio: '',
      requests: modelRequests - before,
    });
    await space.delete();
    await conn.close();
  } finally {
    await sim.close();
    model.close();
    process.env.ANTHROPIC_BASE_URL = saved.a;
    process.env.OPENAI_BASE_URL = saved.o;
    if (saved.a === undefined) delete process.env.ANTHROPIC_BASE_URL;
    if (saved.o === undefined) delete process.env.OPENAI_BASE_URL;
  }
  return {
    title: 'Skills: a skill step vs the same locator step, recording, model calls during replay',
    rows,
    notes: [
      'A skill step acts through the same locator (auto-wait, strictness, verification); what it adds is reading the step and its record. ratio = skill step / locator step, measured interleaved.',
      'Recording times the conversion of a trajectory into a skill (build, YAML, parse back); running the test that produces the trajectory is not included.',
    ],
  };
}
