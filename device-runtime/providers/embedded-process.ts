import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A running embedded simulated runtime: where it listens, its token, and how to stop it. */
export interface EmbeddedDevice {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** What the child says once it listens, or why it could not. */
type Hello = { url: string; token: string } | { error: string };

/**
 * Start the embedded simulated runtime in a child process of its own (embedded-main), for a run
 * whose workers all share it. In the runner's process it competed with Playwright's dispatcher
 * for one thread: with two workers that thread was busy most of the time, and each tool call
 * waited its turn behind reporter messages. In its own process the operating system runs it
 * beside the runner. The child ends with its parent (it watches the IPC channel) and on close.
 */
export async function startEmbeddedDeviceProcess(opts: { faults?: string; seed?: number; slots?: number } = {}): Promise<EmbeddedDevice> {
  const here = import.meta.url;
  const source = here.endsWith('.ts');
  const main = fileURLToPath(new URL(`./embedded-main.${source ? 'ts' : 'js'}`, here));
  // In a checkout the sources are TypeScript: run them through tsx (as bin/nestwright.js does).
  const child = fork(main, [JSON.stringify(opts)], { execArgv: source ? ['--import', 'tsx'] : [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const hello = await new Promise<Hello>((resolve) => {
    child.once('message', (m) => resolve(m as Hello));
    child.once('exit', (code, signal) => resolve({ error: `the simulator process exited (${signal ?? `code ${code}`}) before it listened` }));
    child.once('error', (e) => resolve({ error: e.message }));
  });
  if ('error' in hello) {
    child.kill();
    throw new Error(`embedded device: ${hello.error}`);
  }
  return { url: hello.url, token: hello.token, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
