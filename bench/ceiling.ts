import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ceiling-child.mjs');

const message = (c: ChildProcess, what: string) =>
  new Promise<void>((resolve, reject) => {
    c.on('message', (m) => m === what && resolve());
    c.once('exit', (code) => reject(new Error(`bench ceiling: a client exited with ${code} before "${what}"`)));
  });
const exited = (c: ChildProcess) =>
  new Promise<void>((resolve, reject) =>
    c.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`bench ceiling: a client exited with ${code}`)),
    ),
  );

/**
 * The machine's ceiling for the shape of a run on the embedded device: one server process that
 * every worker's calls go through, and `clients` processes each making `calls` round trips one
 * after another. No MCP, no simulator, no Playwright: a bare node:http server and client, so
 * what 2 clients gain over 1 is what this machine (its cores, its wake-ups between processes)
 * allows any framework built this way. Milliseconds for all the clients' calls.
 */
export async function httpCeiling(clients: number, calls: number): Promise<number> {
  const server = fork(CHILD, ['server'], { stdio: 'ignore' });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('message', (p) => resolve(Number(p)));
      server.once('exit', (code) => reject(new Error(`bench ceiling: the server exited with ${code}`)));
    });
    const children = Array.from({ length: clients }, () =>
      fork(CHILD, ['client', String(port), String(calls)], { stdio: 'ignore' }),
    );
    const ends = children.map(exited);
    await Promise.all(children.map((c) => message(c, 'ready')));
    const t = performance.now();
    const done = children.map((c) => message(c, 'done'));
    for (const c of children) c.send('go');
    await Promise.all(done);
    const ms = performance.now() - t;
    await Promise.all(ends);
    return ms;
  } finally {
    server.kill();
  }
}
