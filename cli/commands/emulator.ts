/**
 * `nestwright emulator list | start <avd> [--headless] [--snapshot [NAME]] [--port N] [--timeout S] | stop [serial|avd|--all]`
 * over the Android SDK's `emulator` (found through ANDROID_HOME / ANDROID_SDK_ROOT, then PATH).
 * `start` boots in the background and prints progress (elapsed, stage) until sys.boot_completed;
 * several emulators run side by side, each on its own console port. Exit code: 0 done, 1 failed,
 * 2 usage error.
 */
import { parseArgs } from 'node:util';
import { Adb } from '../../device-runtime/providers/adb/adb.js';
import { ProviderError } from '../../device-runtime/providers/adb/errors.js';
import { findEmulator, listAvds } from '../../device-runtime/providers/emulator/avds.js';
import { startEmulator, stopEmulator } from '../../device-runtime/providers/emulator/lifecycle.js';
import { runningEmulators } from '../../device-runtime/providers/emulator/running.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage:
  nestwright emulator list
  nestwright emulator start <avd> [--headless] [--snapshot [NAME]] [--port 5554] [--timeout 300]
  nestwright emulator stop [<serial>|<avd>|--all]

  --headless   no window (-no-window)
  --snapshot   boot from the AVD's quick-boot snapshot (or the one named) when it has one;
               without it: a cold boot. The snapshot is saved when the emulator stops.
  --port       console port, even, 5554-5682 (default: the first free one); adb names it emulator-<port>
  --timeout    seconds to wait for sys.boot_completed (default 300)

Exit code: 0 done, 1 failed, 2 usage error.
`;

export async function emulatorCommand(argv: string[], io: Io = stdio): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        headless: { type: 'boolean' },
        snapshot: { type: 'boolean' },
        'snapshot-name': { type: 'string' },
        port: { type: 'string' },
        timeout: { type: 'string' },
        all: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return usage(io, (e as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, target, ...extra] = positionals;
  if (values.help || !sub) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }
  // `--snapshot NAME`: parseArgs cannot have an optional value, so a following word is the name.
  const api = `nestwright emulator ${sub}`;
  try {
    if (sub === 'list') {
      if (target) return usage(io, `list takes no argument (got "${target}")`);
      const avds = await listAvds(api);
      const adb = safeAdb(api);
      const running = adb ? await runningEmulators(adb) : [];
      if (avds.length === 0)
        io.out('No AVDs. Create one: avdmanager create avd -n test -k "system-images;android-34;google_apis;x86_64"\n');
      for (const avd of avds) {
        const on = running.filter((r) => r.avd === avd);
        io.out(`${avd}${on.length ? `  running: ${on.map((r) => `${r.serial} (${r.state})`).join(', ')}` : ''}\n`);
      }
      return 0;
    }
    if (sub === 'start') {
      if (!target) return usage(io, 'start needs an AVD name (`nestwright emulator list` lists them)');
      if (extra.length > 1) return usage(io, `unexpected arguments: ${extra.join(' ')}`);
      const snapshotName = extra[0] ?? values['snapshot-name'];
      if (snapshotName && !values.snapshot)
        return usage(io, `unexpected argument "${snapshotName}"; a snapshot name follows --snapshot`);
      const port = values.port === undefined ? undefined : Number(values.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 5554 || port > 5682 || port % 2))
        return usage(io, `--port ${values.port}: an even console port from 5554 to 5682`);
      const timeout = values.timeout === undefined ? 300 : Number(values.timeout);
      if (!(timeout > 0)) return usage(io, `--timeout ${values.timeout}: seconds, > 0`);
      findEmulator(api);
      const adb = Adb.find(api);
      const started = await startEmulator(adb, {
        avd: target,
        headless: values.headless ?? false,
        snapshot: snapshotName ?? values.snapshot ?? false,
        consolePort: port,
        bootTimeoutMs: timeout * 1000,
        onProgress: (p) => io.out(`${p.serial}  ${(p.elapsedMs / 1000).toFixed(1).padStart(6)} s  ${p.stage}\n`),
      });
      io.out(
        `${started.serial} (${started.avd}) booted in ${(started.bootMs / 1000).toFixed(1)} s; pid ${started.pid}; log ${started.log}\nuse.deviceOptions: { provider: 'adb', serial: '${started.serial}' }  or  { provider: 'emulator', avd: '${started.avd}' }\n`,
      );
      return 0;
    }
    if (sub === 'stop') {
      const adb = Adb.find(api);
      const running = await runningEmulators(adb);
      const chosen = values.all ? running : running.filter((r) => !target || r.serial === target || r.avd === target);
      if (!values.all && !target && running.length > 1)
        return usage(
          io,
          `${running.length} emulators run (${running.map((r) => r.serial).join(', ')}): name one, or --all`,
        );
      if (chosen.length === 0) {
        io.err(`${api}: no running emulator${target ? ` matches ${target}` : ''}\n`);
        return 1;
      }
      for (const r of chosen) {
        await stopEmulator(adb, r.serial);
        io.out(`${r.serial}${r.avd ? ` (${r.avd})` : ''} stopped\n`);
      }
      return 0;
    }
    return usage(io, `unknown subcommand "${sub}"`);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    io.err(`${e.message}\n`);
    return 1;
  }
}

function safeAdb(api: string): Adb | null {
  try {
    return Adb.find(api);
  } catch {
    return null;
  }
}

function usage(io: Io, msg: string): number {
  io.err(`nestwright emulator: ${msg}\n\n${USAGE}`);
  return 2;
}
