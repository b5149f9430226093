import type { SimSpace } from './space.js';

export interface ShellDevice {
  sdkInt: number;
  abis: string[];
  model: string;
}

type Out = { exit_code: number; stdout: string; stderr: string };
const ok = (stdout: string): Out => ({ exit_code: 0, stdout, stderr: '' });

/**
 * The handful of shell commands the simulator answers the way a device (through Shizuku) would.
 * Whether a command may run at all is the policy's business (runtime.ts), not this function's.
 */
export function simulateShell(command: string, space: SimSpace, device: ShellDevice): Out {
  const argv = command.trim().split(/\s+/);
  const props: Record<string, string> = {
    'ro.build.version.sdk': String(device.sdkInt),
    'ro.product.model': device.model,
    'ro.product.cpu.abilist': device.abis.join(','),
    'ro.product.cpu.abi': device.abis[0] ?? '',
  };
  switch (argv[0]) {
    case 'getprop':
      if (argv[1] === undefined)
        return ok(
          Object.entries(props)
            .map(([k, v]) => `[${k}]: [${v}]`)
            .join('\n') + '\n',
        );
      return ok(`${props[argv[1]] ?? ''}\n`);
    case 'pm':
      if (argv[1] === 'list' && argv[2] === 'packages') {
        const filter = argv[3];
        const pkgs = [...space.apps.keys()].filter((p) => !filter || p.includes(filter));
        return ok(pkgs.map((p) => `package:${p}\n`).join(''));
      }
      break;
    case 'dumpsys':
      if (argv[1] === 'activity' && argv[2] === 'top') {
        const fg = space.foreground;
        if (!fg) return ok('TASK null\n');
        return ok(
          `TASK ${fg.model.package} id=${fg.slot ?? 0}\n  ACTIVITY ${fg.model.package}/${fg.top?.name ?? ''} pid=${fg.pid}\n`,
        );
      }
      break;
    case 'echo':
      return ok(`${argv.slice(1).join(' ')}\n`);
    case 'id':
      return ok('uid=2000(shell) gid=2000(shell) groups=2000(shell)\n');
  }
  return { exit_code: 127, stdout: '', stderr: `/system/bin/sh: ${argv[0]}: not found (not simulated)\n` };
}
