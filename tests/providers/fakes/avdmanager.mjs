#!/usr/bin/env node
// A fake `avdmanager` for nestwright's tests: `list avd` over $ANDROID_AVD_HOME, in the real layout.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const home = process.env.ANDROID_AVD_HOME ?? join(process.env.HOME ?? '', '.android/avd');
const [cmd, what] = process.argv.slice(2);
if (cmd !== 'list' || what !== 'avd') {
  process.stderr.write('Error: the nestwright fake avdmanager knows only `list avd`\n');
  process.exit(1);
}
const names = existsSync(home)
  ? readdirSync(home)
      .filter((f) => f.endsWith('.ini'))
      .map((f) => f.slice(0, -4))
  : [];
process.stdout.write(
  'Available Android Virtual Devices:\n' +
    names
      .map(
        (n) =>
          `    Name: ${n}\n    Path: ${join(home, `${n}.avd`)}\n  Target: Google APIs (Google Inc.)\n          Based on: Android 14.0 ("UpsideDownCake") Tag/ABI: google_apis/x86_64\n  Sdcard: 512 MB\n`,
      )
      .join('---------\n'),
);
