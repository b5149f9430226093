#!/usr/bin/env node
// A fake Android `emulator` for nestwright's tests. `-list-avds` lists $ANDROID_AVD_HOME/*.ini;
// `-avd NAME [-port N] [-no-window] [-no-snapshot] [-snapshot S]` runs in the foreground like the
// real one: it appears to the fake adb as emulator-<port> (offline, then device), sets
// sys.boot_completed after the AVD's boot time (a fifth of it from a saved quick-boot snapshot),
// and runs until `adb emu kill`, SIGTERM or SIGINT, saving its snapshot on the way out.
// Fake-only keys in NAME.ini: fake.bootMs, fake.api, fake.runtime (running | installed | none).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectOrStart, relayMessages } from './client-lib.mjs';

const argv = process.argv.slice(2);
const avdHome = process.env.ANDROID_AVD_HOME ?? join(process.env.HOME ?? '', '.android/avd');
const flag = (f) => argv.includes(f);
const value = (f) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : undefined);

if (flag('-list-avds')) {
  const names = existsSync(avdHome)
    ? readdirSync(avdHome)
        .filter((f) => f.endsWith('.ini'))
        .map((f) => f.slice(0, -4))
        .sort()
    : [];
  process.stdout.write(names.map((n) => `${n}\n`).join(''));
  process.exit(0);
}
if (flag('-version')) {
  process.stdout.write('Android emulator version 35.2.10.0 (build_id fake) (CL:N/A)\n');
  process.exit(0);
}
const avd = value('-avd') ?? (argv[0]?.startsWith('@') ? argv[0].slice(1) : undefined);
if (!avd) {
  process.stderr.write("ERROR   | No AVD specified. Use '@foo' or '-avd foo' to launch a virtual device named 'foo'\n");
  process.exit(1);
}
const ini = join(avdHome, `${avd}.ini`);
if (!existsSync(ini)) {
  process.stderr.write(
    `PANIC: Unknown AVD name [${avd}], use -list-avds to see valid list.\nHOME is defined but there is no file ${avd}.ini in $HOME/.android/avd\n`,
  );
  process.exit(1);
}
const conf = Object.fromEntries(
  readFileSync(ini, 'utf8')
    .split('\n')
    .filter((l) => l.includes('='))
    .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
);
const port = Number(value('-port') ?? 5554);
const snapshots = join(avdHome, `${avd}.avd`, 'snapshots', value('-snapshot') ?? 'default_boot');
const noSnapshot = flag('-no-snapshot');
const quick = !noSnapshot && !flag('-no-snapshot-load') && existsSync(snapshots);
const coldMs = Number(conf['fake.bootMs'] ?? 1500);
const bootMs = quick ? Math.round(coldMs / 5) : coldMs;
const runtime = conf['fake.runtime'] ?? 'running';
const t0 = Date.now();
process.stdout.write(
  `INFO    | Android emulator version 35.2.10.0 (fake)\nINFO    | ${quick ? `Loading snapshot '${value('-snapshot') ?? 'default_boot'}'` : 'Cold boot: requested by the user'}\n`,
);

const sock = await connectOrStart('emulator', false);
const device = {
  serial: `emulator-${port}`,
  state: 'offline',
  bootMs,
  api: Number(conf['fake.api'] ?? 34),
  emulator: { avd, consolePort: port },
  runtime: runtime === 'none' ? false : { running: runtime === 'running' },
};
sock.write(JSON.stringify({ tool: 'emulator-attach', device }) + '\n');

function exit(code) {
  if (!noSnapshot && !flag('-no-snapshot-save')) {
    mkdirSync(snapshots, { recursive: true });
    process.stdout.write('INFO    | Saving snapshot default_boot\n');
  }
  process.stdout.write('INFO    | Shutting down\n');
  sock.destroy();
  process.exit(code);
}
relayMessages(sock, (msg) => {
  if (msg.error) {
    process.stderr.write(`ERROR   | ${msg.error}: another emulator uses console port ${port}\n`);
    process.exit(1);
  }
  if (msg.attached)
    setTimeout(() => process.stdout.write(`INFO    | Boot completed in ${Date.now() - t0} ms\n`), bootMs);
  if (msg.kill) exit(0);
  return true;
});
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGTERM', () => exit(0));
process.on('SIGINT', () => exit(0));
