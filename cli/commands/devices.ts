/**
 * `nestwright devices [--json] [--runtime-package P]`: every device adb lists, with model, API
 * level, ABI and the NestSpace runtime's version and state. Exit code: 0 listed (even none),
 * 1 adb missing or failing, 2 usage error.
 */
import { parseArgs } from 'node:util';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { describeDevices, runtimeCell, type DeviceRow } from '../../device-runtime/providers/adb/describe.js';
import { ProviderError } from '../../device-runtime/providers/adb/errors.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright devices [--json] [--runtime-package com.coke.nestspace]
       nestwright devices --companion [--port 8080] [--wait 5] [--json]   (phones that dial in)

  --json              print the rows as JSON
  --runtime-package   application id of the NestSpace runtime (default com.coke.nestspace)

Exit code: 0 listed (even none), 1 adb missing or failing, 2 usage error.
`;

export function renderDevices(rows: DeviceRow[]): string {
  if (rows.length === 0)
    return 'No devices attached. Start an emulator (`npx nestwright emulator start <avd>`) or plug in a phone with USB debugging on.\n';
  const table = [
    ['SERIAL', 'STATE', 'MODEL', 'API', 'ABI', 'KIND', 'NESTSPACE RUNTIME'],
    ...rows.map((r) => [
      r.serial,
      r.state,
      r.model ?? '-',
      r.api?.toString() ?? '-',
      r.abi ?? '-',
      r.emulator ? `emulator${r.avd ? ` (${r.avd})` : ''}` : 'device',
      runtimeCell(r),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row
      .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const notes = rows.flatMap((r) => {
    if (r.state === 'unauthorized') return [`${r.serial}: accept the "Allow USB debugging?" prompt on the device.`];
    if (r.state === 'offline')
      return [`${r.serial}: offline — an emulator still booting, or a phone to replug (\`adb reconnect\`).`];
    if (r.problem) return [`${r.serial}: ${r.problem}`];
    if (r.runtime && !r.runtime.installed)
      return [
        `${r.serial}: no NestSpace runtime — give use.deviceOptions.runtime.apk, or \`adb -s ${r.serial} install -r -g nestspace.apk\`.`,
      ];
    return [];
  });
  return `${lines.join('\n')}\n${notes.length ? `\n${notes.join('\n')}\n` : ''}`;
}

export async function devicesCommand(argv: string[], io: Io = stdio): Promise<number> {
  // Phones that dial in are not adb's: they have a command of their own.
  if (argv.includes('--companion')) return (await import('./devices-companion.js')).companionDevicesCommand(argv, io);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        json: { type: 'boolean' },
        'runtime-package': { type: 'string' },
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
  try {
    const adb = Adb.find('nestwright devices');
    const rows = await describeDevices(adb, {
      ...(values['runtime-package'] ? { runtimePackage: values['runtime-package'] } : {}),
    });
    io.out(values.json ? `${JSON.stringify(rows, null, 2)}\n` : renderDevices(rows));
    return 0;
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    io.err(`${e.message}\n`);
    return 1;
  }
}
