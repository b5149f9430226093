import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import type { FakeDevice } from './fake-device.js';

export interface Reply {
  out?: string;
  err?: string;
  code: number;
}

/**
 * `adb shell <command>` on a fake device: the handful of commands nestwright runs (getprop, pm,
 * dumpsys package, pidof, am, run-as … cat), answered the way Android's toybox and framework
 * commands answer — including `pm` failing until the package service is up during boot.
 */
export function runShell(dev: FakeDevice, command: string): Reply {
  const argv = command.trim().split(/\s+/).filter(Boolean);
  const [cmd, ...args] = argv;
  const needsBoot = (): Reply | null =>
    dev.booted ? null : { err: `cmd: Can't find service: ${cmd === 'am' ? 'activity' : 'package'}\n`, code: 20 };
  switch (cmd) {
    case undefined:
      return { err: 'interactive shells are not supported by the fake adb\n', code: 1 };
    case 'echo':
      return { out: `${args.join(' ')}\n`, code: 0 };
    case 'getprop': {
      const props = dev.props();
      if (args[0]) return { out: `${props[args[0]] ?? ''}\n`, code: 0 };
      return {
        out: Object.entries(props)
          .map(([k, v]) => `[${k}]: [${v}]\n`)
          .join(''),
        code: 0,
      };
    }
    case 'pm': {
      const wait = needsBoot();
      if (wait) return wait;
      if (args[0] === 'list' && args[1] === 'packages') {
        const filter = args[2] ?? '';
        const pkgs = ['android', 'com.android.settings', 'com.android.shell', ...dev.packages.keys()].filter((p) =>
          p.includes(filter),
        );
        return { out: pkgs.map((p) => `package:${p}\n`).join(''), code: 0 };
      }
      if (args[0] === 'path' && args[1]) {
        return dev.packages.has(args[1])
          ? { out: `package:/data/app/~~fake/${args[1]}-1/base.apk\n`, code: 0 }
          : { code: 1 };
      }
      return { err: `Unknown command: ${args[0] ?? ''}\n`, code: 255 };
    }
    case 'dumpsys': {
      if (args[0] !== 'package' || !args[1]) return { err: `Can't find service: ${args[0] ?? ''}\n`, code: 0 };
      const wait = needsBoot();
      if (wait) return wait;
      const v = dev.packages.get(args[1]);
      if (!v) return { out: 'Dexopt state:\n  Unable to find package: ' + args[1] + '\n', code: 0 };
      return {
        out: `Packages:\n  Package [${args[1]}] (fake):\n    userId=10${dev.transportId}42\n    versionCode=${v.versionCode} minSdk=24 targetSdk=37\n    versionName=${v.versionName}\n`,
        code: 0,
      };
    }
    case 'pidof': {
      const pid = args[0] && args[0] === dev.runtimePackage ? dev.runtimePid : null;
      return pid ? { out: `${pid}\n`, code: 0 } : { code: 1 };
    }
    case 'am': {
      const wait = needsBoot();
      if (wait) return wait;
      if (args[0] === 'start-foreground-service' || args[0] === 'startservice') {
        const n = args.indexOf('-n');
        const r = dev.startService(n >= 0 ? (args[n + 1] ?? '') : '');
        return r.ok ? { out: `${r.message}\n`, code: 0 } : { err: `${r.message}\n`, code: 0 };
      }
      if (args[0] === 'force-stop') {
        if (args[1] === dev.runtimePackage) void dev.stopRuntime();
        return { code: 0 };
      }
      return { err: `Error: unknown command '${args[0] ?? ''}'\n`, code: 255 };
    }
    case 'run-as': {
      const [pkg, sub, file] = args;
      if (!pkg || !dev.packages.has(pkg)) return { err: `run-as: unknown package: ${pkg ?? ''}\n`, code: 1 };
      if (sub !== 'cat' || !file) return { err: `run-as: only 'cat FILE' is supported by the fake\n`, code: 1 };
      const path = normalize(join(dev.dataDir(pkg), file));
      if (!path.startsWith(dev.dataDir(pkg)) || !existsSync(path))
        return { err: `cat: ${file}: No such file or directory\n`, code: 1 };
      return { out: readFileSync(path, 'utf8'), code: 0 };
    }
    default:
      return { err: `/system/bin/sh: ${cmd}: inaccessible or not found\n`, code: 127 };
  }
}
