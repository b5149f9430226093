/**
 * Debian's `apksigner` (the platform's own verifier, in Java) as an independent oracle for the
 * tests. Its command line runs in one JVM per test worker (JavaToolServer.java: apksigner's own
 * main() for each run, its exit caught), not one per call: a JVM costs about 0.4 s of CPU to
 * start, and the signature tests ask about 70 times.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** Whether `apksigner` is on the PATH (found without starting Java). */
export const hasApksigner = (process.env.PATH ?? '')
  .split(path.delimiter)
  .some((dir) => dir && existsSync(path.join(dir, 'apksigner')));

/** apksigner's jar, as the `apksigner` script names it (Debian). */
const JAR = '/usr/share/java/apksigner.jar';
const SOURCE = path.join(import.meta.dirname, '../../fixtures/apks/tools/JavaToolServer.java');

/** `apksigner verify -v <path>`'s verdict: true when it exits 0, and what it printed. */
export async function apksignerVerifies(apk: string): Promise<{ ok: boolean; out: string }> {
  const r = await apksigner(['verify', '-v', apk]);
  return { ok: r.code === 0, out: r.out };
}

/** `apksigner <args>`: its exit code and what it printed (stdout and stderr). */
export function apksigner(args: string[]): Promise<{ code: number; out: string }> {
  if (args.some((a) => /[\t\n]/.test(a)))
    throw new Error(`apksigner: an argument holds a tab or a newline: ${args.join(' ')}`);
  const s = (server ??= start());
  return new Promise((resolve, reject) => {
    s.waiting.push({ resolve, reject });
    hold(s, true);
    s.child.stdin.write(`${['apksigner', ...args].join('\t')}\n`);
  });
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  waiting: Array<{ resolve: (r: { code: number; out: string }) => void; reject: (e: Error) => void }>;
}
let server: Server | undefined;

function start(): Server {
  if (!existsSync(JAR)) throw new Error(`apksigner: ${JAR} is missing: install Debian's apksigner package`);
  // Java 17 runs a single source file as a program; the security manager is how it catches exit().
  const child = spawn(
    'java',
    ['-Djava.security.manager=allow', '-cp', JAR, SOURCE, 'apksigner=com.android.apksigner.ApkSignerTool'],
    { stdio: 'pipe' },
  );
  const s: Server = { child, waiting: [] };
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const space = line.indexOf(' ');
    const out = Buffer.from(line.slice(space + 1), 'base64').toString('utf8');
    s.waiting.shift()?.resolve({ code: Number(line.slice(0, space)), out });
    if (!s.waiting.length) hold(s, false);
  });
  child.on('exit', (code) => {
    if (server === s) server = undefined;
    for (const w of s.waiting.splice(0)) w.reject(new Error(`apksigner's JVM exited (${code}): ${stderr}`));
  });
  return s;
}

/**
 * While a run is asked for, the JVM keeps this process alive; idle, it does not (the worker may
 * end while the JVM waits for its next line, and the JVM ends when its stdin closes).
 */
function hold(s: Server, on: boolean): void {
  for (const handle of [s.child, s.child.stdin, s.child.stdout, s.child.stderr] as unknown as Array<{
    ref?: () => void;
    unref?: () => void;
  }>)
    (on ? handle.ref : handle.unref)?.call(handle);
}
