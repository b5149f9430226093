import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContentStore } from '../../reporters/allure/content-store.js';

/** Issue 47, item 11: the Allure results' copy of a failed test's network.har was 0644. */
test("the Allure results' copy of a network.har is readable by its owner alone; other attachments keep the usual mode", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-allure-har-'));
  try {
    const store = new ContentStore(dir);
    const har = JSON.stringify({
      log: { entries: [{ request: { headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] } }] },
    });
    const shot = store.put('screen.png', 'image/png', Buffer.from('not really a png'));
    const first = store.put('network.har', 'application/json', har);
    expect(statSync(path.join(dir, first.source)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, shot.source)).mode & 0o077).not.toBe(0);
    // The same bytes attached before under another name (so written with the usual mode) become private too.
    const plain = store.put('log.json', 'application/json', '{"same":true}');
    store.put('other.har', 'application/json', '{"same":true}');
    expect(statSync(path.join(dir, plain.source)).mode & 0o777).toBe(0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
