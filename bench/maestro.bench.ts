import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { parseSkill, resolveParams } from '../device-runtime/protocol/skill/index.js';
import {
  connectDevice,
  EMBEDDED_TOKEN_ENV,
  EMBEDDED_URL_ENV,
  startEmbeddedDevice,
} from '../device-runtime/providers/index.js';
import { runMaestroFlow } from '../framework/maestro/execute.js';
import { planFlow } from '../framework/maestro/plan.js';
import { replaySkill } from '../framework/skills/index.js';
import { importMaestro } from '../framework/skills/maestro.js';
import { Space } from '../framework/core/space.js';
import { Trajectory } from '../framework/core/trajectory.js';
import { median, percentile, round, type BenchSection } from './section.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FLOW = path.join(ROOT, 'bench/maestro/new-note.yaml');
const NOTES_APK = 'fixtures/apks/notes.apk';
const stats = (xs: number[]) => ({ median_ms: round(median(xs)), p95_ms: round(percentile(xs, 95)) });

/**
 * One flow (new note, type, save, check) three ways on the same simulated device, each on a
 * fresh instance, interleaved so all see the same machine: run by the Maestro executor, imported
 * as a skill and replayed, and written as a spec's locator calls. Then a suite of the simulated
 * apps' flows through `nestwright maestro test` with 4 workers against 1, on one device.
 */
export async function benchMaestro(): Promise<BenchSection> {
  const sim = await startEmbeddedDevice({ faults: 'instant' });
  process.env[EMBEDDED_URL_ENV] = sim.url;
  process.env[EMBEDDED_TOKEN_ENV] = sim.token;
  const rows: BenchSection['rows'] = [];
  try {
    const conn = await connectDevice({ provider: 'sim' });
    const space = await Space.create(conn.client, 'bench-maestro');
    const options = { actionTimeout: 5_000, expectTimeout: 5_000 };
    const plan = planFlow(FLOW);
    if (!plan.flow || plan.issues.length) throw new Error(`bench flow does not plan: ${JSON.stringify(plan.issues)}`);
    const imported = importMaestro(FLOW);
    // Through the skill parser, as a skill file is read.
    const skill = parseSkill(stringify(imported.skills.find((s) => s.target === imported.top)!.skill), 'new-note.yaml');
    const planned = { skill, path: FLOW, params: resolveParams(skill, {}), nested: new Map() };
    const times = { maestro: [] as number[], skill: [] as number[], spec: [] as number[] };
    const N = 10;
    for (let i = 0; i < N + 1; i++) {
      for (const way of ['maestro', 'skill', 'spec'] as const) {
        const app = await space.launch(NOTES_APK, new Trajectory(), options);
        const t = performance.now();
        if (way === 'maestro') await runMaestroFlow(app, plan.flow, { lookupTimeout: 5_000, log: () => {} });
        else if (way === 'skill') {
          const r = await app.port.wrap('bench', {}, (call) => replaySkill(app.port, planned, call));
          if (!r.ok) throw r.error;
        } else {
          await app.getByText('New note').tap();
          await app.getById('title').fill('Milk');
          await app.getByText('Save').tap();
          await app.getByText('Milk', { exact: true }).textContent();
        }
        if (i > 0) times[way].push(performance.now() - t);
        await app.close();
      }
    }
    rows.push({ measure: 'new-note flow as a spec (locator calls)', n: N, ...stats(times.spec), vs: '', ratio: 1 });
    rows.push({
      measure: 'the same flow through the Maestro executor',
      n: N,
      ...stats(times.maestro),
      vs: 'spec',
      ratio: round(median(times.maestro) / median(times.spec)),
    });
    rows.push({
      measure: 'the same flow imported as a skill, replayed',
      n: N,
      ...stats(times.skill),
      vs: 'spec',
      ratio: round(median(times.skill) / median(times.spec)),
    });
    await space.delete();
    await conn.close();
  } finally {
    await sim.close();
    // The CLI runs below start their own device.
    delete process.env[EMBEDDED_URL_ENV];
    delete process.env[EMBEDDED_TOKEN_ENV];
  }
  const flows = [
    'notes/add-note',
    'notes/edit-note',
    'notes/delete-note',
    'notes/search',
    'shop/sign-in',
    'shop/bad-email',
    'settings/wifi',
    'settings/no-match',
  ].map((f) => `tests/maestro/flows/${f}.yaml`);
  // Instant (the device answers at once: process start dominates) and realistic (a phone's
  // timings: the device's time dominates, which parallel instances overlap).
  for (const faults of ['instant', 'realistic'] as const) {
    const suite: Record<number, number> = {};
    for (const workers of [1, 4]) {
      const t = performance.now();
      const code = await cli(
        [
          'maestro',
          'test',
          ...flows,
          '--app',
          NOTES_APK,
          '--app',
          'fixtures/apks/shop.apk',
          '--workers',
          String(workers),
        ],
        { NESTWRIGHT_FAULTS: faults },
      );
      if (code !== 0) throw new Error(`maestro test --workers ${workers} (${faults}) exited ${code}`);
      suite[workers] = performance.now() - t;
    }
    rows.push({
      measure: `nestwright maestro test, ${flows.length} flows, ${faults}, 1 worker (wall clock, process start included)`,
      n: 1,
      median_ms: round(suite[1]!),
      p95_ms: '',
      vs: '',
      ratio: 1,
    });
    rows.push({
      measure: `the same ${flows.length} flows, ${faults}, 4 workers on one device`,
      n: 1,
      median_ms: round(suite[4]!),
      p95_ms: '',
      vs: '1 worker',
      ratio: round(suite[4]! / suite[1]!),
    });
  }
  return { title: 'Maestro flows: executor vs skill vs spec; 4 workers vs 1', rows };
}

function cli(args: string[], env: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/nestwright.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('close', (c) => resolve(c ?? -1)));
}
