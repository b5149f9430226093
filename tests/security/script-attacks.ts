/**
 * The attacks on the script sandbox that can hang or kill the process running them, run one after
 * the other in this process so that tests/security/scripts.test.ts can kill it if one of them gets
 * out: `node --import tsx tests/security/script-attacks.ts`. Prints one JSON line per attack
 * (`{ attack, refused, code, message }`), then one line for a script run after all of them and
 * one run by a scope made before them (the host still works).
 */
import { FlowScript, ScriptError } from '../../device-runtime/protocol/skill/index.js';

/** The time limits of the attacks' scopes, ms: short for those the time limit stops, long for the others. */
const SHORT = 800;
const LONG = 20_000;

const ATTACKS: Record<string, { code: string; limit: number }> = {
  // A job of the promise queue runs after the script returns: a timeout on the script alone misses it.
  'queued-job loop': { code: 'Promise.resolve().then(() => { for (;;) {} }); 1', limit: SHORT },
  'queued-job chain': { code: 'function again() { Promise.resolve().then(again) } again(); 1', limit: SHORT },
  'memory bomb': { code: 'let a = []; for (;;) a.push(new Array(1e6))', limit: SHORT },
  'string bomb': { code: "let s = 'x'; for (;;) s = s.repeat(2)", limit: LONG },
  'deep recursion': { code: 'function f(n) { return f(n + 1) + 1 } f(0)', limit: LONG },
  // Recursion in the engine's own native code (JSON), not in script functions.
  'deep native recursion': {
    code: 'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; JSON.stringify(a)',
    limit: LONG,
  },
  'dynamic import': { code: "import('node:fs').then((fs) => { output.etc = fs.readdirSync('/etc') })", limit: LONG },
};

async function main(): Promise<void> {
  const only = process.argv[2];
  // A flow running beside the attacks: it still runs its scripts after them.
  const bystander = new FlowScript(LONG, () => {});
  await bystander.run('output.user = "ana"', 'bystander.js');
  for (const [attack, { code, limit }] of Object.entries(ATTACKS)) {
    if (only && attack !== only) continue;
    const scope = new FlowScript(limit, () => {});
    let line: Record<string, unknown>;
    try {
      await scope.run(code, `${attack}.js`);
      // Give queued jobs and rejections of the host's own event loop their turn.
      await new Promise((r) => setTimeout(r, 50));
      line = { attack, refused: false, output: JSON.stringify(await scope.output()) };
    } catch (e) {
      line = {
        attack,
        refused: e instanceof ScriptError,
        code: (e as { code?: string }).code ?? null,
        message: (e as Error).message,
      };
    }
    scope.dispose();
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  const after = new FlowScript(LONG, () => {});
  const value = await after.interpolate('${output.n = 1 + 1}', 'after.js');
  after.dispose();
  const beside = await bystander.interpolate('${1 + 2}', 'bystander.js');
  bystander.dispose();
  process.stdout.write(
    `${JSON.stringify({ attack: 'after', value, beside, rssMb: Math.round(process.memoryUsage().rss / 1e6) })}\n`,
  );
}

process.on('unhandledRejection', (e) => {
  process.stdout.write(`${JSON.stringify({ attack: 'unhandled rejection', message: String(e) })}\n`);
  process.exit(3);
});
void main();
