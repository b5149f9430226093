/**
 * Chaos: the simulator's state directory fills up or turns read-only under a running `nestwright
 * sim`. Checked: calls that change state are refused with STORAGE_UNAVAILABLE (what failed, the
 * errno, what to do), reads keep working, state.json stays the last complete state (it parses,
 * byte for byte what was there; no temp file left), nothing acknowledged is lost once the disk
 * takes writes again, and stopping while it cannot write says so. A state directory that cannot
 * be created refuses the start with a message naming it.
 *
 * Stand-ins, because root ignores permission bits: when this process may mount (root in a
 * privileged container, as here), the state directory is a tiny tmpfs — filled with a file until
 * the kernel answers ENOSPC, then remounted read-only for EROFS. Otherwise, as a non-root user,
 * read-only is `chmod 0500` on the directory (EACCES) and the disk-full case is skipped.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  chmodSync,
} from 'node:fs';
import { join } from 'node:path';
import { DeviceClient, DeviceError, McpToolTransport } from '../../device-runtime/client/index.js';
import { NOTES, apk, tempDir } from '../runtime/helpers.js';
import { spawnSim, type SpawnedSim } from '../transport/spawn-sim.js';

test.describe.configure({ timeout: 120_000 });

const isRoot = process.getuid?.() === 0;

/** A tmpfs of `kb` KB at a fresh directory, or null when this process may not mount. */
function tmpfs(kb: number): { dir: string; remount(opts: string): void; unmount(): void } | null {
  const dir = tempDir('nw-tmpfs-');
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k,mode=0700`, 'tmpfs', dir]).status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remount: (opts) => expect(spawnSync('mount', ['-o', `remount,${opts}`, dir]).status).toBe(0),
    unmount: () => {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
const canMount = (() => {
  const t = tmpfs(64);
  t?.unmount();
  return t !== null;
})();

async function connect(sim: SpawnedSim, stateDir: string): Promise<DeviceClient> {
  return new DeviceClient(await McpToolTransport.http(sim.url, readFileSync(join(stateDir, 'token'), 'utf8').trim()));
}

/** Fill the file system of `dir` until the kernel says ENOSPC; returns the filler's path. */
function fillUp(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
  return filler;
}

/** Change state until the runtime refuses with STORAGE_UNAVAILABLE; returns what it acknowledged first. */
async function changeUntilRefused(
  c: DeviceClient,
  prefix: string,
): Promise<{ acknowledged: string[]; error: DeviceError }> {
  const acknowledged: string[] = [];
  for (let i = 0; i < 200; i++) {
    const name = `${prefix}-${i}`;
    try {
      await c.call('space_create', { name });
      acknowledged.push(name);
    } catch (e) {
      if (e instanceof DeviceError && e.code === 'STORAGE_UNAVAILABLE') return { acknowledged, error: e };
      throw e;
    }
    await new Promise((r) => setTimeout(r, 50)); // writes are coalesced over 100 ms
  }
  throw new Error('the runtime never refused a change on a state directory that cannot be written');
}

async function settledState(file: string): Promise<string> {
  await new Promise((r) => setTimeout(r, 400)); // past the 100 ms coalescing: the write happened
  return readFileSync(file, 'utf8');
}

async function refusesAndRecovers(
  sim: SpawnedSim,
  stateDir: string,
  breakIt: () => void,
  mendIt: () => void,
  errno: string,
): Promise<void> {
  const c = await connect(sim, stateDir);
  const file = join(stateDir, 'state.json');
  const { space_id } = await c.call('space_create', { name: 'kept' });
  await c.call('session_acquire', { space_id });
  await c.call('space_install_apk', { space_id, apk_paths: [apk('notes.apk')] });
  await c.call('space_launch', { space_id, package: NOTES });
  const saved = await settledState(file);

  breakIt();
  const { acknowledged, error } = await changeUntilRefused(c, errno);
  expect(error.message).toMatch(
    /^space_create: STORAGE_UNAVAILABLE: space_create: the simulator cannot save its state to .*state\.json/,
  );
  expect(error.message).toContain('Nothing was changed');
  expect(error.hint).toMatch(/Free space on that disk or make the directory writable/);
  expect(error.details).toMatchObject({ state_file: file, errno });
  expect(error.retryable).toBe(false);
  // Leased changes are refused the same way; reads go on.
  await expect(c.call('space_rename', { space_id, name: 'renamed' })).rejects.toMatchObject({
    code: 'STORAGE_UNAVAILABLE',
  });
  expect((await c.call('space_list', {})).spaces.map((s) => s.name)).toContain('kept');
  expect((await c.call('ui_observe', { space_id })).package).toBe(NOTES);
  // state.json is the last complete state, untouched; no temp file is left.
  expect(readFileSync(file, 'utf8')).toBe(saved);
  expect(JSON.parse(saved).version).toBe(1);
  expect(readdirSync(stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

  mendIt();
  await c.call('space_rename', { space_id, name: 'renamed' });
  const after = JSON.parse(await settledState(file)) as { spaces: Array<{ name: string }> };
  const names = after.spaces.map((s) => s.name);
  // What was acknowledged before the failed write (kept in memory, written now) is all there.
  expect(names).toEqual(expect.arrayContaining(['renamed', ...acknowledged]));
  expect(names).not.toContain(`${errno}-${acknowledged.length}`);
  await c.close();
}

test('disk full: changes refused with STORAGE_UNAVAILABLE (ENOSPC), reads served, state.json whole, nothing acknowledged lost', async () => {
  test.skip(!canMount, 'needs a tmpfs it can fill (mount as root); without one there is no honest full disk here');
  const fs = tmpfs(512)!;
  const stateDir = join(fs.dir, 'state');
  const sim = await spawnSim(['--port', '0', '--state-dir', stateDir]);
  try {
    let filler = '';
    await refusesAndRecovers(
      sim,
      stateDir,
      () => (filler = fillUp(fs.dir)),
      () => rmSync(filler),
      'ENOSPC',
    );
    // Stopping while the disk is full: the exit says the last changes were not saved, and which state survives.
    const c = await connect(sim, stateDir);
    const before = await settledState(join(stateDir, 'state.json'));
    fillUp(fs.dir);
    await c.call('space_create', { name: 'unsaved' });
    await c.close().catch(() => {});
    const code = await sim.kill('SIGTERM');
    expect(code).toBe(1);
    expect(sim.stdout()).toMatch(
      /stopped, but the last changes were not saved: ENOSPC.*state\.json keeps the last saved state/,
    );
    expect(readFileSync(join(stateDir, 'state.json'), 'utf8')).toBe(before);
  } finally {
    await sim.kill('SIGKILL');
    fs.unmount();
  }
});

test('read-only state directory: changes refused with STORAGE_UNAVAILABLE, reads served, state.json whole; writable again, it catches up', async () => {
  const fs = canMount ? tmpfs(4096) : null;
  test.skip(!fs && isRoot, 'root ignores chmod and this process may not mount a tmpfs to remount read-only');
  const base = fs?.dir ?? tempDir('nw-ro-');
  const stateDir = join(base, 'state');
  const sim = await spawnSim(['--port', '0', '--state-dir', stateDir]);
  try {
    if (fs)
      await refusesAndRecovers(
        sim,
        stateDir,
        () => fs.remount('ro'),
        () => fs.remount('rw'),
        'EROFS',
      );
    else
      await refusesAndRecovers(
        sim,
        stateDir,
        () => chmodSync(stateDir, 0o500),
        () => chmodSync(stateDir, 0o700),
        'EACCES',
      );
  } finally {
    await sim.kill('SIGKILL');
    if (fs) fs.unmount();
    else rmSync(base, { recursive: true, force: true });
  }
});

test('a state directory that cannot be created: the start is refused, naming it and what to do', async () => {
  const base = tempDir('nw-statefile-');
  const notADir = join(base, 'state-is-a-file');
  writeFileSync(notADir, 'not a directory');
  try {
    const err = await spawnSim(['--port', '0', '--state-dir', join(notADir, 'sim')]).then(
      async (s) => (await s.kill('SIGKILL'), null),
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/exited with 2 before listening/);
    expect(err?.message).toContain(`state directory ${join(notADir, 'sim')}: cannot create it (ENOTDIR`);
    expect(err?.message).toContain('pass another --state-dir, or --ephemeral');
    expect(existsSync(join(notADir, 'sim'))).toBe(false);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
