/**
 * resources.arsc as aapt2 writes it with --enable-sparse-encoding (sparse type chunks for configs
 * that hold few entries): built here with Debian's aapt2 when installed, so the sparse path is
 * checked against the real tool's output rather than our own idea of the format.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectApk } from '../../device-runtime/apk/index.js';
import { ResourceTable } from '../../device-runtime/apk/arsc.js';
import { parseAxml } from '../../device-runtime/apk/axml.js';
import { ApkZip } from '../../device-runtime/apk/zip.js';

const FRAMEWORK = '/usr/share/android-framework-res/framework-res.apk';

function sparseTypeChunks(arsc: Buffer): number {
  let n = 0;
  const walk = (off: number, end: number) => {
    while (off + 8 <= end) {
      const type = arsc.readUInt16LE(off);
      const hs = arsc.readUInt16LE(off + 2);
      const size = arsc.readUInt32LE(off + 4);
      if (type === 0x0201 && arsc[off + 9]! & 1) n++;
      if (type === 0x0200) walk(off + hs, off + size);
      off += size;
    }
  };
  walk(arsc.readUInt16LE(2), arsc.length);
  return n;
}

test('sparse type chunks and locale preference', async () => {
  const probe = spawnSync('aapt2', ['version'], { encoding: 'utf8' });
  test.skip(!!probe.error, 'aapt2 is not installed (Debian package "aapt"); skipping');
  const dir = test.info().outputPath();
  mkdirSync(join(dir, 'res/values'), { recursive: true });
  mkdirSync(join(dir, 'res/values-fr'), { recursive: true });
  writeFileSync(
    join(dir, 'res/values/strings.xml'),
    `<resources>${Array.from({ length: 200 }, (_, i) => `<string name="s${i}">String ${i}</string>`).join('')}</resources>`,
  );
  writeFileSync(
    join(dir, 'res/values-fr/strings.xml'),
    '<resources><string name="s150">Chaîne 150</string><string name="s151">Chaîne 151</string></resources>',
  );
  writeFileSync(
    join(dir, 'AndroidManifest.xml'),
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.sparse" android:versionCode="3" android:versionName="3.0">
  <uses-sdk android:minSdkVersion="26" android:targetSdkVersion="34"/>
  <application android:label="@string/s150"><activity android:name=".Main"/></application></manifest>`,
  );
  const run = (args: string[]) => {
    const r = spawnSync('aapt2', args, { cwd: dir, encoding: 'utf8' });
    expect(r.status, `aapt2 ${args.join(' ')}: ${r.stderr}`).toBe(0);
  };
  run(['compile', '--dir', 'res', '-o', 'compiled.zip']);
  run([
    'link',
    '-o',
    'sparse.apk',
    '-I',
    FRAMEWORK,
    '--manifest',
    'AndroidManifest.xml',
    '--enable-sparse-encoding',
    'compiled.zip',
  ]);

  const apk = join(dir, 'sparse.apk');
  const zip = await ApkZip.open(apk);
  const arsc = await zip.read(zip.get('resources.arsc')!, 1 << 24);
  const manifest = parseAxml(await zip.read(zip.get('AndroidManifest.xml')!, 1 << 24));
  await zip.close();
  expect(sparseTypeChunks(arsc), 'aapt2 wrote a sparse chunk for values-fr').toBeGreaterThan(0);

  const label = manifest.children.find((c) => c.name === 'application')!.attrs.find((a) => a.name === 'label')!.value;
  expect(label.type).toBe('ref');
  const id = label.value as number;
  const table = new ResourceTable(arsc);
  expect(table.resolveString(id)).toBe('String 150');
  expect(table.resolveString(id, 'fr')).toBe('Chaîne 150');
  expect(table.resolveString(id + 1, 'fr')).toBe('Chaîne 151');
  expect(table.resolveString(id + 2, 'fr')).toBe('String 152'); // absent from the sparse chunk: default
  expect(table.resolveString(id + 10_000)).toBeNull();
  expect((await inspectApk(apk)).label).toBe('String 150');
});
