/**
 * `nestwright conformance [--device URL --token T | --adb [serial]] [--json] [--only group,…]`:
 * run the conformance kit (framework/conformance) against a NestSpace runtime. With neither
 * --device nor --adb it starts the embedded simulator and checks that. Exit code: 0 every
 * required check passed, 1 one failed (or the runtime could not be reached), 2 usage error.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { McpToolTransport, type ToolTransport } from '../../device-runtime/client/index.js';
import { connectDevice, startEmbeddedDevice } from '../../device-runtime/providers/index.js';
import { ALL_CHECKS, renderConformance, runConformance } from '../../framework/conformance/index.js';
import { stdio, type Io } from './io.js';

const GROUPS = [...new Set(ALL_CHECKS.map((c) => c.group))];

const USAGE = `Usage: nestwright conformance [--device URL --token T | --adb [serial]] [--json] [--only group,…] [--apk-dir D]

  --device URL     the runtime's MCP endpoint (e.g. http://127.0.0.1:8765/mcp)
  --token T        its bearer token (or NESTWRIGHT_TOKEN)
  --adb [serial]   reach the runtime on an adb device (adb forward), the only one or this serial
  --json           print the report as JSON (for CI)
  --only LIST      run only these groups or check ids, comma-separated: ${GROUPS.join(', ')}
  --apk-dir D      where the runtime can read notes.apk and shop.apk (default: this package's fixtures/apks)

With neither --device nor --adb, the embedded simulator is started and checked.
Exit code: 0 every required check passed, 1 a required check failed or the runtime was not reached, 2 usage error.
`;

export async function conformanceCommand(argv: string[], io: Io = stdio): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        device: { type: 'string' },
        token: { type: 'string' },
        adb: { type: 'boolean' },
        json: { type: 'boolean' },
        only: { type: 'string' },
        'apk-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    if (values.device && values.adb) throw new Error('give --device or --adb, not both');
    if (positionals.length > (values.adb ? 1 : 0)) throw new Error(`unexpected argument ${positionals.at(-1)}`);
    const known = new Set<string>([...GROUPS, ...ALL_CHECKS.map((c) => c.id)]);
    const bad = (values.only?.split(',') ?? []).filter((o) => !known.has(o.trim()));
    if (bad.length) throw new Error(`--only: no group or check ${bad.join(', ')} (groups: ${GROUPS.join(', ')})`);
  } catch (e) {
    io.err(`nestwright conformance: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  let connect: () => Promise<ToolTransport>;
  let stop = async () => {};
  if (values.adb) {
    const serial = positionals[0];
    connect = async () => {
      const conn = await connectDevice({ provider: 'adb', ...(serial ? { serial } : {}) });
      const t = conn.client.transport;
      return {
        callTool: (n, a, s) => t.callTool(n, a, s),
        close: () => conn.close(),
        get sessionId() {
          return t.sessionId;
        },
      };
    };
  } else {
    let url = values.device;
    let token = values.token ?? process.env.NESTWRIGHT_TOKEN ?? '';
    if (!url) {
      const sim = await startEmbeddedDevice();
      ({ url, token } = sim);
      stop = () => sim.close();
    }
    connect = () => McpToolTransport.http(url!, token);
  }
  try {
    const report = await runConformance(
      {
        connect,
        ...(values['apk-dir']
          ? { apks: { notes: join(values['apk-dir'], 'notes.apk'), shop: join(values['apk-dir'], 'shop.apk') } }
          : {}),
      },
      { ...(values.only ? { only: values.only.split(',').map((o) => o.trim()) } : {}) },
    );
    io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderConformance(report));
    return report.failed > 0 ? 1 : 0;
  } catch (e) {
    io.err(`nestwright conformance: cannot check the runtime: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await stop();
  }
}
