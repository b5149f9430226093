import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type net from 'node:net';
import type { FakeDevice } from './fake-device.js';
import type { ForwardTable } from './fake-forward.js';
import { runShell } from './fake-shell.js';

/** What adb commands read and change on the fake server (FakeAdbServer implements it). */
export interface AdbHost {
  readonly devices: Map<string, FakeDevice>;
  readonly emulators: Map<string, net.Socket>;
  readonly watchers: Set<() => void>;
  readonly forwards: ForwardTable;
  shutdown(): Promise<never>;
}

export interface Session {
  send(m: { out?: string; err?: string; exit?: number; [k: string]: unknown }): void;
  onClose(f: () => void): void;
}

const UNAUTHORIZED =
  "adb: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.\n";

/** `adb devices -l`, byte for byte as adb's transport.cpp prints it. */
export function listDevices(adb: AdbHost, long: boolean): string {
  const lines = [...adb.devices.values()].map((d) => {
    if (!long) return `${d.serial}\t${d.state}\n`;
    let s = `${d.serial.padEnd(22)} ${d.state}`;
    if (d.spec.usb) s += ` usb:${d.spec.usb}`;
    if (d.state === 'device') {
      const p = d.props();
      s += ` product:${p['ro.product.name']} model:${p['ro.product.model']!.replace(/\s/g, '_')} device:${p['ro.product.device']}`;
    }
    return `${s} transport_id:${d.transportId}\n`;
  });
  return `List of devices attached\n${lines.join('')}\n`;
}

/** Run one `adb …` invocation. Global options first (`-s`, `-t`, `-d`, `-e`), then the command. */
export async function runAdb(adb: AdbHost, argv: string[], serialEnv: string | null, io: Session): Promise<void> {
  const done = (r: { out?: string; err?: string; code?: number }) =>
    io.send({ ...(r.out ? { out: r.out } : {}), ...(r.err ? { err: r.err } : {}), exit: r.code ?? 0 });
  let serial: string | null = serialEnv;
  let kind: 'usb' | 'emu' | null = null;
  const args = [...argv];
  while (args[0]?.startsWith('-') && args[0] !== '--') {
    const a = args.shift()!;
    if (a === '-s') serial = args.shift() ?? null;
    else if (a === '-d') kind = 'usb';
    else if (a === '-e') kind = 'emu';
    else if (a === '-t' || a === '-H' || a === '-P' || a === '-L') args.shift();
    else return done({ err: `adb: unknown option ${a}\n`, code: 1 });
  }
  const [cmd, ...rest] = args;

  /** The one target device, or the error adb prints. */
  const target = (needOnline = true): FakeDevice | string => {
    let pool = [...adb.devices.values()];
    if (kind) pool = pool.filter((d) => (kind === 'emu') === !!d.spec.emulator);
    let dev: FakeDevice | undefined;
    if (serial) {
      dev = adb.devices.get(serial);
      if (!dev) return `adb: device '${serial}' not found\n`;
    } else {
      if (pool.length === 0) return 'adb: no devices/emulators found\n';
      if (pool.length > 1) return 'adb: more than one device/emulator\n';
      dev = pool[0]!;
    }
    if (needOnline && dev.state === 'offline') return 'adb: device offline\n';
    if (needOnline && dev.state === 'unauthorized') return UNAUTHORIZED;
    return dev;
  };
  const withDevice = (f: (d: FakeDevice) => Promise<void> | void, needOnline = true) => {
    const d = target(needOnline);
    if (typeof d === 'string') return done({ err: d, code: 1 });
    return f(d);
  };

  switch (cmd) {
    case undefined:
    case 'help':
      return done({ out: 'Android Debug Bridge version 1.0.41 (nestwright fake)\n', code: cmd ? 0 : 1 });
    case 'version':
      return done({
        out: 'Android Debug Bridge version 1.0.41\nVersion 35.0.2-fake\nInstalled as (nestwright test fake)\nRunning on Linux\n',
      });
    case 'start-server':
      return done({});
    case 'kill-server':
      done({});
      return void setTimeout(() => void adb.shutdown(), 10);
    case 'devices':
      return done({ out: listDevices(adb, rest.includes('-l')) });
    case 'get-state':
      return withDevice((d) => done({ out: `${d.state}\n` }));
    case 'get-serialno':
      return withDevice((d) => done({ out: `${d.serial}\n` }), false);
    case 'track-devices': {
      const long = rest.includes('-l');
      const push = () => {
        const body = listDevices(adb, long)
          .replace(/^List of devices attached\n/, '')
          .replace(/\n$/, '');
        io.send({ out: Buffer.byteLength(body).toString(16).padStart(4, '0') + body });
      };
      push();
      adb.watchers.add(push);
      return io.onClose(() => adb.watchers.delete(push));
    }
    case 'wait-for-device':
    case 'wait-for-disconnect': {
      const check = () => {
        const d = serial ? adb.devices.get(serial) : [...adb.devices.values()][0];
        const ok = cmd === 'wait-for-device' ? d?.state === 'device' : !d;
        if (ok) {
          adb.watchers.delete(check);
          done({});
        }
      };
      adb.watchers.add(check);
      io.onClose(() => adb.watchers.delete(check));
      return check();
    }
    case 'shell':
      return withDevice((d) => done(runShell(d, rest.join(' '))));
    case 'forward': {
      if (rest[0] === '--list')
        return done({
          out: adb.forwards
            .list()
            .map((f) => `${f.serial} ${f.local} ${f.remote}\n`)
            .join(''),
        });
      if (rest[0] === '--remove-all') {
        adb.forwards.removeAll(null);
        return done({});
      }
      if (rest[0] === '--remove') {
        return adb.forwards.remove(rest[1] ?? '')
          ? done({})
          : done({ err: `adb: error: listener '${rest[1] ?? ''}' not found\n`, code: 1 });
      }
      const noRebind = rest[0] === '--no-rebind';
      const [local, remote] = noRebind ? rest.slice(1) : rest;
      if (!local || !remote) return done({ err: 'adb: usage: forward takes two arguments\n', code: 1 });
      return withDevice(async (d) => {
        const r = await adb.forwards.add(d.serial, local, remote, noRebind);
        if ('error' in r) return done({ err: `${r.error}\n`, code: 1 });
        done({ out: local === 'tcp:0' ? `${r.port}\n` : '' });
      });
    }
    case 'reverse':
      // The fake device shares this machine's loopback: a device port leads to the same port here,
      // so `reverse tcp:0 tcp:N` picks N, as a phone picks a free port of its own.
      return withDevice((d) => {
        const mine = reversesOf(d);
        if (rest[0] === '--list')
          return done({ out: [...mine].map((p) => `${d.serial} tcp:${p} tcp:${p}\n`).join('') });
        if (rest[0] === '--remove-all') return (mine.clear(), done({}));
        if (rest[0] === '--remove') {
          const port = Number(/^tcp:(\d+)$/.exec(rest[1] ?? '')?.[1]);
          return mine.delete(port)
            ? done({})
            : done({ err: `adb: error: listener '${rest[1] ?? ''}' not found\n`, code: 1 });
        }
        const [local, remote] = rest;
        const target = Number(/^tcp:(\d+)$/.exec(remote ?? '')?.[1]);
        if (!/^tcp:\d+$/.test(local ?? '') || !target)
          return done({ err: `adb: error: cannot bind listener: the fake reverses tcp: ports only\n`, code: 1 });
        const port = local === 'tcp:0' ? target : Number(local!.slice(4));
        mine.add(port);
        done({ out: local === 'tcp:0' ? `${port}\n` : '' });
      });
    case 'install':
      return withDevice((d) => install(d, rest, done));
    case 'uninstall':
      return withDevice((d) => {
        const pkg = rest[rest.length - 1] ?? '';
        if (!d.packages.delete(pkg)) return done({ out: 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', code: 1 });
        if (pkg === d.runtimePackage) void d.stopRuntime();
        done({ out: 'Success\n' });
      });
    case 'emu':
      return withDevice((d) => {
        const console = adb.emulators.get(d.serial);
        if (!console) return done({ err: 'error: no emulator detected\n', code: 1 });
        if (rest[0] === 'kill') {
          console.write(JSON.stringify({ kill: true }) + '\n');
          return done({ out: 'OK: killing emulator, bye bye\r\nOK\r\n' });
        }
        if (rest[0] === 'avd' && rest[1] === 'name') return done({ out: `${d.spec.emulator!.avd}\r\nOK\r\n` });
        return done({ out: `KO: unknown command, try 'help'\r\n` });
      }, false);
    default:
      return done({ err: `adb: unknown command ${cmd}\n`, code: 1 });
  }
}

async function install(
  d: FakeDevice,
  args: string[],
  done: (r: { out?: string; err?: string; code?: number }) => void,
): Promise<void> {
  const flags = args.filter((a) => a.startsWith('-'));
  const file = args.filter((a) => !a.startsWith('-')).pop();
  if (!file) return done({ err: 'adb: install requires an argument\n', code: 1 });
  const path = resolve(file);
  if (!existsSync(path)) return done({ err: `adb: failed to stat ${file}: No such file or directory\n`, code: 1 });
  if (!d.booted) return done({ err: `adb: failed to install ${file}: cmd: Can't find service: package\n`, code: 1 });
  // The package manager reads the manifest: here, the repository's own APK reader.
  const { inspectApk } = await import('../../../device-runtime/apk/index.js');
  let info;
  try {
    info = await inspectApk(path);
  } catch (e) {
    return done({
      out: 'Performing Streamed Install\n',
      err: `adb: failed to install ${file}: Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${path}: ${(e as Error).message.split('\n')[0]}]\n`,
      code: 1,
    });
  }
  if (d.packages.has(info.package) && !flags.includes('-r')) {
    return done({
      out: 'Performing Streamed Install\n',
      err: `adb: failed to install ${file}: Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${info.package} without first uninstalling.]\n`,
      code: 1,
    });
  }
  d.packages.set(info.package, {
    versionName: info.versionName ?? String(info.versionCode),
    versionCode: info.versionCode,
  });
  done({ out: 'Performing Streamed Install\nSuccess\n' });
}

/** The ports `adb reverse` made on each fake device. */
const reverses = new WeakMap<object, Set<number>>();
function reversesOf(d: object): Set<number> {
  let set = reverses.get(d);
  if (!set) reverses.set(d, (set = new Set()));
  return set;
}
