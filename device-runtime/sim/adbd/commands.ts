import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { ByteQueue } from './byte-queue.js';
import type { AndroidDevice } from './device.js';
import { installApk, installFromStdin } from './install.js';
import type { Reply } from './reply.js';
import { splitWords } from './words.js';

export type { Reply } from './reply.js';

/**
 * The shell commands the simulated device answers — those nestwright's providers and adb itself
 * send (getprop, pm, cmd package, dumpsys package, pidof, am, run-as … cat, echo, rm), each as
 * Android's toybox or framework command prints it, exit status included. `pm`, `am` and
 * `dumpsys package` fail as on a phone until the package service is up during boot.
 */
export async function runCommand(dev: AndroidDevice, line: string, stdin: ByteQueue): Promise<Reply> {
  // adb appends `</dev/null` to the commands it runs itself (`rm -f '…' </dev/null`).
  const argv = splitWords(line)?.filter((w) => !/^\d*[<>]/.test(w));
  if (!argv) return { err: `/system/bin/sh: syntax error: unterminated quoted string\n`, code: 2 };
  const [cmd, ...args] = argv;
  const needsBoot = (service: string): Reply | null =>
    dev.booted ? null : { err: `cmd: Can't find service: ${service}\n`, code: 20 };
  switch (cmd) {
    case undefined:
      return { err: 'the simulated device has no interactive shell; give a command\n', code: 1 };
    case 'echo':
      return { out: `${args.join(' ')}\n`, code: 0 };
    case 'true':
      return { code: 0 };
    case 'getprop': {
      const props = dev.props();
      if (args[0]) return { out: `${props[args[0]] ?? args[1] ?? ''}\n`, code: 0 };
      return {
        out: Object.entries(props)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `[${k}]: [${v}]\n`)
          .join(''),
        code: 0,
      };
    }
    case 'pm':
      return needsBoot('package') ?? packageCommand(dev, args, stdin);
    case 'cmd':
      if (args[0] === 'package') return needsBoot('package') ?? packageCommand(dev, args.slice(1), stdin);
      return { err: `cmd: Can't find service: ${args[0] ?? ''}\n`, code: 20 };
    case 'dumpsys': {
      if (args[0] !== 'package') return { err: `Can't find service: ${args[0] ?? ''}\n`, code: 0 };
      const wait = needsBoot('package');
      if (wait) return wait;
      const pkg = args[1] ?? '';
      const v = dev.packages.get(pkg);
      if (!v) return { out: `Dexopt state:\n  Unable to find package: ${pkg}\n`, code: 0 };
      return {
        out: `Packages:\n  Package [${pkg}] (sim):\n    versionCode=${v.versionCode} minSdk=24 targetSdk=34\n    versionName=${v.versionName}\n`,
        code: 0,
      };
    }
    case 'pidof': {
      const rt = dev.runtime;
      const pid = rt && args[0] === rt.package ? rt.pid() : null;
      return pid ? { out: `${pid}\n`, code: 0 } : { code: 1 };
    }
    case 'am':
      return needsBoot('activity') ?? activityCommand(dev, args);
    case 'run-as': {
      const [pkg = '', sub, file] = args;
      if (!dev.packages.has(pkg)) return { err: `run-as: unknown package: ${pkg}\n`, code: 1 };
      if (!dev.debuggable || pkg !== dev.runtime?.package)
        return { err: `run-as: package not debuggable: ${pkg}\n`, code: 1 };
      if (sub !== 'cat' || !file)
        return { err: `run-as: the simulated device runs only 'cat FILE' as ${pkg}\n`, code: 1 };
      const text = dev.privateFile(pkg, file);
      return text === null ? { err: `cat: ${file}: No such file or directory\n`, code: 1 } : { out: text, code: 0 };
    }
    case 'rm': {
      const files = args.filter((a) => !a.startsWith('-'));
      for (const f of files) {
        const p = dev.hostPath(f);
        if (!p || !existsSync(p)) {
          if (!args.includes('-f')) return { err: `rm: ${f}: No such file or directory\n`, code: 1 };
          continue;
        }
        rmSync(p, { force: true, recursive: args.includes('-r') || args.includes('-rf') });
      }
      return { code: 0 };
    }
    case 'ls': {
      const p = dev.hostPath(args.find((a) => !a.startsWith('-')) ?? '/data/local/tmp');
      if (!p || !existsSync(p)) return { err: `ls: ${args[0] ?? ''}: No such file or directory\n`, code: 1 };
      return {
        out: readdirSync(p)
          .map((n) => `${n}\n`)
          .join(''),
        code: 0,
      };
    }
    case 'cat': {
      const p = args[0] ? dev.hostPath(args[0]) : null;
      if (!p || !existsSync(p)) return { err: `cat: ${args[0] ?? ''}: No such file or directory\n`, code: 1 };
      return { out: readFileSync(p, 'utf8'), code: 0 };
    }
    default:
      return { err: `/system/bin/sh: ${cmd}: inaccessible or not found\n`, code: 127 };
  }
}

async function packageCommand(dev: AndroidDevice, args: string[], stdin: ByteQueue): Promise<Reply> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list': {
      if (rest[0] !== 'packages') return { err: `Unknown command: list ${rest[0] ?? ''}\n`, code: 255 };
      const filter = rest.slice(1).find((a) => !a.startsWith('-')) ?? '';
      const pkgs = dev.allPackages().filter((p) => p.includes(filter));
      return { out: pkgs.map((p) => `package:${p}\n`).join(''), code: 0 };
    }
    case 'path':
      return dev.packages.has(rest[0] ?? '')
        ? { out: `package:/data/app/~~sim/${rest[0]}-1/base.apk\n`, code: 0 }
        : { code: 1 };
    case 'install': {
      const size = rest.indexOf('-S');
      if (size >= 0) return installFromStdin(dev, Number(rest[size + 1]), rest, stdin);
      const file = rest.filter((a) => !a.startsWith('-')).pop();
      const p = file ? dev.hostPath(file) : null;
      if (!p || !existsSync(p)) return { err: `Error: Can't open file: ${file ?? ''}\n`, code: 1 };
      return installApk(dev, p, rest);
    }
    case 'uninstall': {
      const pkg = rest.filter((a) => !a.startsWith('-')).pop() ?? '';
      if (!dev.packages.delete(pkg)) return { out: 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', code: 1 };
      if (pkg === dev.runtime?.package) await dev.runtime.stop();
      return { out: 'Success\n', code: 0 };
    }
    default:
      return { err: `Unknown command: ${sub ?? ''}\n`, code: 255 };
  }
}

const SERVICE_CLASS = 'McpForegroundService';

async function activityCommand(dev: AndroidDevice, args: string[]): Promise<Reply> {
  const [sub, ...rest] = args;
  if (sub === 'start-foreground-service' || sub === 'startservice') {
    const n = rest.indexOf('-n');
    const component = n >= 0 ? (rest[n + 1] ?? '') : '';
    const [pkg = '', cls = ''] = component.split('/');
    const rt = dev.runtime;
    // `am` reports a component it cannot find on stderr and exits 0.
    if (!rt || pkg !== rt.package || !dev.packages.has(pkg) || !cls.endsWith(SERVICE_CLASS))
      return { err: 'Error: Not found; no service started.\n', code: 0 };
    await rt.start();
    return { out: `Starting service: Intent { cmp=${component} }\n`, code: 0 };
  }
  if (sub === 'force-stop') {
    if (rest[0] && rest[0] === dev.runtime?.package) await dev.runtime.stop();
    return { code: 0 };
  }
  return { err: `Error: unknown command '${sub ?? ''}'\n`, code: 255 };
}
