/**
 * `nestwright devices --companion [--host H] [--port P] [--wait S] [--json]`: open the endpoint
 * companion phones dial in to, wait for them (phones retry with backoff, so one that is pointed
 * here shows up within seconds), and list the ones that authenticated. Keys: NESTWRIGHT_COMPANION_KEYS.
 * Exit code: 0 listed (even none), 1 the endpoint could not open, 2 usage error.
 */
import { parseArgs } from 'node:util';
import { startCompanion } from '../../device-runtime/providers/index.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright devices --companion [--host 0.0.0.0] [--port 8080] [--wait 5] [--json]

  --host, --port   where phones dial in (ws://host:port/ws/device; default 0.0.0.0:8080)
  --wait           seconds to wait for phones (default 5)
  --json           print the phones as JSON
Keys are read from NESTWRIGHT_COMPANION_KEYS (comma-separated).

Exit code: 0 listed (even none), 1 the endpoint could not open, 2 usage error.
`;

export async function companionDevicesCommand(argv: string[], io: Io = stdio): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        companion: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        wait: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    io.err(`nestwright devices: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  const wait = values.wait === undefined ? 5 : Number(values.wait);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !(wait >= 0)) {
    io.err(`nestwright devices: --port takes 0–65535 and --wait a number of seconds\n\n${USAGE}`);
    return 2;
  }
  let companion;
  try {
    companion = await startCompanion({ provider: 'companion', listen: { host: values.host ?? '0.0.0.0', port } });
  } catch (e) {
    io.err(`nestwright devices: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    if (!values.json) io.err(`Waiting ${wait} s for phones at ${companion.phonesUrl}…\n`);
    await new Promise((r) => setTimeout(r, wait * 1000));
    const phones = [...companion.hub.phones.values()].map((p) => ({
      id: p.id,
      name: p.name,
      model: `${p.info.manufacturer} ${p.info.model}`.trim(),
      android: p.info.androidVersion,
      screen: `${p.info.screenWidth}x${p.info.screenHeight}`,
      battery: p.battery.level ?? p.info.batteryLevel ?? null,
      online: p.online,
    }));
    if (values.json) io.out(`${JSON.stringify(phones, null, 2)}\n`);
    else if (!phones.length)
      io.out(
        "No phone dialled in. Set the companion app's server URL to this machine and port, and its key to one of NESTWRIGHT_COMPANION_KEYS.\n",
      );
    else {
      const table = [
        ['ID', 'NAME', 'MODEL', 'ANDROID', 'SCREEN', 'BATTERY'],
        ...phones.map((p) => [p.id, p.name, p.model, p.android, p.screen, p.battery === null ? '-' : `${p.battery}%`]),
      ];
      const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
      io.out(
        `${table
          .map((r) =>
            r
              .map((c, i) => c.padEnd(widths[i]!))
              .join('  ')
              .trimEnd(),
          )
          .join('\n')}\n`,
      );
    }
    return 0;
  } finally {
    await companion.close();
  }
}
