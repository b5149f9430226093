import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { NestwrightError } from '../../framework/core/errors.js';
import { MAX_HAR_INFLATED_BYTES } from '../../framework/network/har-zip.js';
import { buildZip, deflatedZeros } from '../apk/zip-builder.js';
import {
  harBackend,
  network,
  ORIGIN,
  PAGE,
  recordWith,
  STYLE,
  unzipped,
  type Backend,
  type Client,
  type HarLog,
} from './har-helpers.js';

/**
 * HAR archives and HARs with their bodies beside them, recorded and replayed, by the cases of
 * Playwright's own tests (tests/library/browsercontext-har.spec.ts of microsoft/playwright, each
 * named in its title); and archives built to hurt (zip bombs), refused as an APK would be. Each
 * replay runs where the backend is gone, so only the HAR can answer.
 */
test.describe.configure({ mode: 'default' });

let backend: Backend;
let dir: string;
test.beforeAll(async () => {
  backend = await harBackend();
  dir = await mkdtemp(path.join(tmpdir(), 'nw-har-zip-'));
});
test.afterAll(async () => {
  await backend.server.stop();
  await rm(dir, { recursive: true, force: true });
});

const fresh = async (name: string) => path.join(await mkdtemp(path.join(dir, 't-')), name);

/** Playwright's one-style.html: the page and its stylesheet. */
async function oneStyle(c: Client) {
  expect((await c.get(`${ORIGIN}/one-style.html`)).text).toBe(PAGE);
  expect((await c.get(`${ORIGIN}/one-style.css`)).text).toBe(STYLE);
}

/** Replays `file` (notFound: 'abort') where the backend is gone: the page and its stylesheet are served from it. */
async function replayed(file: string) {
  const n = await network('gone');
  await n.net.routeFromHAR(file, { notFound: 'abort' });
  const page = await n.client.get(`${ORIGIN}/one-style.html`);
  const style = await n.client.get(`${ORIGIN}/one-style.css`);
  await expect(n.client.get(`${ORIGIN}/other.html`)).rejects.toThrow();
  await n.close();
  expect(page.text).toContain('hello, world!');
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(style.text).toContain('pink');
}

const isZip = async (file: string) => (await readFile(file)).subarray(0, 4).toString('latin1') === 'PK\x03\x04';
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

test('use.recordHar to a .zip, replayed from the archive (browsercontext-har.spec.ts: should round-trip har.zip)', async () => {
  const file = await fresh('har.zip');
  await recordWith(test.info(), backend, { mode: 'minimal', path: file }, oneStyle);
  expect(await isZip(file)).toBe(true);
  expect(await modeOf(file)).toBe(0o600);
  await replayed(file);
});

test('an archive extracted by unzip replays from its har.har, the bodies beside it (browsercontext-har.spec.ts: should round-trip extracted har.zip)', async () => {
  const file = await fresh('har.zip');
  await recordWith(test.info(), backend, { mode: 'minimal', path: file }, oneStyle);
  const out = path.join(path.dirname(file), 'hardir');
  execFileSync('unzip', ['-q', file, '-d', out]);
  await replayed(path.join(out, 'har.har'));
});

test("routeFromHAR's update to a .zip writes an archive that replays (browsercontext-har.spec.ts: should update har.zip for context)", async () => {
  const file = await fresh('har.zip');
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  await oneStyle(rec.client);
  await rec.close();
  expect(await isZip(file)).toBe(true);
  const zip = unzipped(file);
  const log = (JSON.parse(zip.get('har.har')!.toString()) as { log: HarLog }).log;
  // Playwright's defaults for an update: bodies attached, minimal entries.
  expect(log.entries[0]!.response.content).toMatchObject({ size: -1 });
  expect(zip.get(log.entries[0]!.response.content._file!)!.toString()).toBe(PAGE);
  await replayed(file);
});

test("routeFromHAR's update to a .har attaches the bodies beside it (browsercontext-har.spec.ts: should update extracted har.zip for page)", async () => {
  const file = await fresh('har.har');
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true });
  await oneStyle(rec.client);
  await rec.close();
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('hello, world!');
  expect(text).toContain('"_file"');
  await replayed(file);
});

test("routeFromHAR's updateContent and updateMode (browsercontext-har.spec.ts: should update har.zip for page with different options)", async () => {
  const file = await fresh('har.zip');
  const rec = await network(backend);
  await rec.net.routeFromHAR(file, { update: true, updateContent: 'embed', updateMode: 'full' });
  await oneStyle(rec.client);
  await rec.close();
  const zip = unzipped(file);
  expect([...zip.keys()]).toEqual(['har.har']);
  const log = (JSON.parse(zip.get('har.har')!.toString()) as { log: HarLog }).log;
  expect(log.entries[0]!.response.content).toMatchObject({ text: PAGE, size: PAGE.length, compression: 0 });
  await replayed(file);
  const n = await network('gone');
  await expect(n.net.routeFromHAR(file, { update: true, updateContent: 'omit' as 'embed' })).rejects.toThrow(
    /^app\.routeFromHAR: updateContent is 'embed', 'attach' or left out, got "omit"/,
  );
  await n.close();
});

/** A HAR whose one entry's body is the archive entry `body`. */
const harFor = (body: string) =>
  JSON.stringify({
    log: {
      entries: [
        {
          request: { method: 'GET', url: `${ORIGIN}/`, headers: [] },
          response: { status: 200, headers: [], content: { _file: body } },
        },
      ],
    },
  });

async function refused(file: string): Promise<NestwrightError> {
  const n = await network('gone');
  try {
    const e = await n.net.routeFromHAR(file).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NestwrightError);
    expect((e as NestwrightError).code).toBe('HAR_INVALID');
    return e as NestwrightError;
  } finally {
    await n.close();
  }
}

test('a zip bomb (entries sharing one stream of zeros) is refused before anything is inflated, as an APK is', async () => {
  const zeros = deflatedZeros(1); // 1 MiB inflated, about 1 KiB in the file
  const copies = MAX_HAR_INFLATED_BYTES / (1024 * 1024) + 1;
  const file = await fresh('bomb.zip');
  await writeFile(
    file,
    buildZip([
      { name: 'har.har', data: Buffer.from(harFor('zeros.bin')) },
      { name: 'zeros.bin', deflated: zeros },
      ...Array.from({ length: copies }, (_, i) => ({ name: `copy-${i}.bin`, sameDataAs: 'zeros.bin' })),
    ]),
  );
  expect((await stat(file)).size).toBeLessThan(200 * 1024);
  const e = await refused(file);
  expect(e.message).toMatch(
    /^app\.routeFromHAR: cannot open .*bomb\.zip as a HAR archive: .*more than 1073741824 bytes/,
  );
});

test('an entry that inflates past the size it declares is refused, and so is an archive without a .har', async () => {
  const liar = await fresh('liar.zip');
  await writeFile(
    liar,
    buildZip([{ name: 'har.har', data: Buffer.from(harFor('x').padEnd(100_000, ' ')), declaredSize: 200 }]),
  );
  expect((await refused(liar)).message).toMatch(/^app\.routeFromHAR: cannot read .*liar\.zip: /);
  const empty = await fresh('nohar.zip');
  await writeFile(empty, buildZip([{ name: 'page.html', data: Buffer.from(PAGE) }]));
  expect((await refused(empty)).message).toMatch(/it has no \.har file/);
  expect((await refused(path.join(dir, 'missing.zip'))).message).toMatch(
    /^app\.routeFromHAR: cannot open .*missing\.zip as a HAR archive: ENOENT.*; record it first with app\.routeFromHAR\(path, \{ update: true \}\)/,
  );
});
