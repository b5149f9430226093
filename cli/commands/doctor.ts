/**
 * `nestwright doctor [--json]`: Node, Java, the Android SDK, adb, the emulator and AVDs, KVM,
 * each device with its NestSpace runtime, the embedded simulator and the Chromium it renders
 * WebViews in — one line each, ok or
 * missing with the fix. Every check runs at once with a budget, so the answer comes in well
 * under 2 s even when a tool hangs. Exit code: 0 when tests can run somewhere (the simulator, at
 * least), 1 when not, 2 usage error.
 */
import { parseArgs } from 'node:util';
import {
  checkAdb,
  checkChromium,
  checkDevices,
  checkEmulator,
  checkJava,
  checkKvm,
  checkNode,
  checkSdk,
  checkSimulator,
  type Check,
} from './doctor-checks.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright doctor [--json]

Checks what nestwright needs, each line ok / warn / missing with the fix.
Exit code: 0 when tests can run (the simulator at least), 1 when not, 2 usage error.
`;

/**
 * Per-tool budget: `java -version`, `adb version`, `emulator -list-avds`, the device queries; and
 * the deadline past which no check holds the answer (a slow one is reported as such). Both scale
 * with NESTWRIGHT_DOCTOR_BUDGET_MS for very slow machines (tests with a Node-script fake adb).
 */
const budgetMs = () => Number(process.env.NESTWRIGHT_DOCTOR_BUDGET_MS) || 1_500;

function within<T extends Check | Check[]>(name: string, p: Promise<T>): Promise<T | Check> {
  const deadline = budgetMs() + 300;
  const late: Check = {
    name,
    status: 'warn',
    detail: `no answer within ${deadline / 1000} s (a hung tool, or a very busy machine)`,
  };
  return Promise.race([p, new Promise<Check>((r) => setTimeout(() => r(late), deadline).unref())]);
}

export async function runChecks(): Promise<Check[]> {
  const BUDGET_MS = budgetMs();
  const [java, adb, emulator, devices, simulator, chromium] = await Promise.all([
    within('Java', checkJava(BUDGET_MS)),
    within('adb', checkAdb(BUDGET_MS)),
    within('emulator', checkEmulator(BUDGET_MS)),
    within('devices', checkDevices(BUDGET_MS)),
    within('simulator', checkSimulator()),
    within('Chromium', checkChromium(BUDGET_MS)),
  ]);
  return [checkNode(), java, checkSdk(), adb, emulator, checkKvm(), devices, simulator, chromium].flat();
}

export function renderChecks(checks: Check[], ms: number): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.map(
    (c) =>
      `  ${c.status.padEnd(7)}  ${c.name.padEnd(width)}  ${c.detail}${c.fix ? `\n  ${' '.repeat(7)}  ${' '.repeat(width)}  fix: ${c.fix}` : ''}`,
  );
  const sim = checks.find((c) => c.name === 'simulator')?.status === 'ok';
  const android = checks.filter((c) => !['Node', 'simulator', 'Chromium'].includes(c.name));
  const chromium = checks.find((c) => c.name === 'Chromium');
  const androidMissing = android.filter((c) => c.status === 'missing').length;
  const summary = [
    sim
      ? 'Simulator: ready — specs on the `sim` provider (the default) run here.'
      : 'Simulator: NOT working — see its line.',
    chromium?.status === 'ok'
      ? "WebViews: ready — the simulator renders apps' WebViews in Chromium."
      : "WebViews: no Chromium — an app's WebView shows no page on the simulator until the Chromium line is fixed.",
    androidMissing === 0
      ? 'Android: ready for the adb / emulator providers.'
      : `Android: ${androidMissing} missing — the adb and emulator providers need the lines above fixed (the simulator does not).`,
  ];
  return `nestwright doctor\n${lines.join('\n')}\n\n${summary.join('\n')}\n(${(ms / 1000).toFixed(2)} s)\n`;
}

export async function doctorCommand(argv: string[], io: Io = stdio): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (e) {
    io.err(`nestwright doctor: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const t0 = performance.now();
  const checks = await runChecks();
  const ms = performance.now() - t0;
  io.out(values.json ? `${JSON.stringify({ ms: Math.round(ms), checks }, null, 2)}\n` : renderChecks(checks, ms));
  return checks.find((c) => c.name === 'simulator')?.status === 'ok' && checks[0]!.status === 'ok' ? 0 : 1;
}
