import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FingerprintStore,
  fingerprintFileOf,
  type FingerprintEntry,
  type FingerprintUpdate,
} from '../../framework/heal/fingerprint-store.js';

/**
 * Fingerprint files are baselines next to the spec, written as Playwright writes snapshots: a
 * plain run adds entries only for locators that have none and never rewrites one (so a run over
 * committed files leaves the tree clean), `--update-snapshots` rewrites, `none` writes nothing.
 */
const fp = (text: string, top = 0.1) => ({
  version: 1 as const,
  role: 'button',
  class: 'android.widget.Button',
  res_id: 'save',
  text,
  desc: null,
  hint: null,
  clickable: true,
  editable: false,
  checkable: false,
  bounds: [0, top, 1, top + 0.05] as [number, number, number, number],
  neighbors: ['Title'],
  ancestors: [],
  package: 'com.example',
  activity: '.Main',
});
const entry = (line: number, text: string, top?: number): FingerprintEntry => ({
  selector: "role=button[name='Save']",
  line,
  column: 3,
  fingerprint: fp(text, top) as FingerprintEntry['fingerprint'],
});

let dir: string;
let spec: string;
test.beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'nw-fp-update-'));
  spec = path.join(dir, 'notes.spec.ts');
  const first = new FingerprintStore('all');
  first.put(spec, entry(7, 'Save'));
  first.flush();
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytes = () => readFileSync(fingerprintFileOf(spec), 'utf8');
function run(update: FingerprintUpdate, ...entries: FingerprintEntry[]): void {
  const store = new FingerprintStore(update);
  for (const e of entries) store.put(spec, e);
  store.flush();
}

for (const update of ['default', 'missing'] as const) {
  test(`updateSnapshots '${update}': a drifted entry is not rewritten, a new locator is added, the rest stay byte for byte`, () => {
    const before = bytes();
    run(update, entry(7, 'Save', 0.4));
    expect(bytes()).toBe(before);
    run(update, entry(7, 'Save', 0.4), entry(12, 'Save'));
    const after = JSON.parse(bytes());
    expect(Object.keys(after.entries)).toEqual(["7:3 role=button[name='Save']", "12:3 role=button[name='Save']"]);
    expect(after.entries["7:3 role=button[name='Save']"].fingerprint.bounds[1]).toBe(0.1);
    // The untouched entry's text is what it was (key order included).
    expect(bytes()).toContain(before.split('"entries": {')[1]!.split('\n  }')[0]!.split('\n').slice(0, 6).join('\n'));
  });
}

test("updateSnapshots 'all' and 'changed' rewrite a drifted entry; 'none' writes nothing, not even a new locator", () => {
  run('changed', entry(7, 'Save', 0.4));
  expect(JSON.parse(bytes()).entries["7:3 role=button[name='Save']"].fingerprint.bounds[1]).toBe(0.4);
  run('all', entry(7, 'Save', 0.6));
  expect(JSON.parse(bytes()).entries["7:3 role=button[name='Save']"].fingerprint.bounds[1]).toBe(0.6);
  const before = bytes();
  run('none', entry(7, 'Save', 0.9), entry(30, 'Save'));
  expect(bytes()).toBe(before);
});

test('a file whose entries are in another key order is left as it is by a run that adds nothing', () => {
  const file = JSON.parse(bytes());
  const e = file.entries["7:3 role=button[name='Save']"];
  // Written by hand (or an older version) with the fingerprint's keys reversed.
  e.fingerprint = Object.fromEntries(Object.entries(e.fingerprint).reverse());
  writeFileSync(fingerprintFileOf(spec), `${JSON.stringify(file, null, 1)}\n`);
  const before = bytes();
  run('default', entry(7, 'Save', 0.4));
  expect(bytes()).toBe(before);
});
