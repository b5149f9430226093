import { test, expect } from '@playwright/test';
import { plain, runInline, type InlineRun } from '../framework/inline.js';

/**
 * The app's world through the framework, on the simulator's apps (docs/app-world.md): location,
 * locale, biometrics, dark mode (Shop), time zone, clock and notifications (Notes), each value
 * gone with its test's instance, and bad input refused naming the value.
 */
test.describe.configure({ mode: 'default' });

let run: InlineRun;

const SHOP = `import { test, expect } from 'nestwright';
import { PNG } from 'pngjs';
import { writeFileSync } from 'node:fs';
test.use({ apk: 'fixtures/apks/shop.apk', permissions: ['android.permission.ACCESS_FINE_LOCATION'] });
const signInForm = async (app) => {
  await app.getById('email').fill('ana@example.com');
  await app.press('back');
  await app.getByRole('checkbox', { name: 'I accept the terms' }).tap();
};
const fingerprint = (app) => app.getByRole('button', { name: 'Sign in with fingerprint' });

test.describe('one after another', () => {
  test.describe.configure({ mode: 'serial' });
  test('location: each city of the table, the nearest one fills the address', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    const cities = [['Berlin', 52.52, 13.405], ['London', 51.507, -0.128], ['New York', 40.713, -74.006], ['São Paulo', -23.551, -46.633], ['Tokyo', 35.676, 139.65], ['Sydney', -33.869, 151.209], ['London', 52.2, 0.12]];
    for (const [city, latitude, longitude] of cities) {
      await app.setGeolocation({ latitude, longitude });
      await app.getByRole('button', { name: 'Use my location' }).tap();
      await expect(app.getById('address')).toContainText(city);
    }
    await app.clock.setFixedTime('2030-06-01T12:00:00Z');
  });
  test('the next test\\'s fresh instance has none of it: Mountain View, en-US prices', async ({ app }) => {
    await app.launch({ activity: '.CheckoutActivity' });
    await app.getByRole('button', { name: 'Use my location' }).tap();
    await expect(app.getById('address')).toHaveText('1600 Amphitheatre Pkwy, Mountain View');
    await expect(app.getById('checkout_total')).toHaveText('Total: $0.00');
  });
});

test.describe('de-DE', () => {
  test.use({ locale: 'de-DE' });
  test('prices in the instance locale', async ({ app }) => {
    await app.launch({ activity: '.CatalogActivity' });
    await expect(app.getById('product_row').filter({ hasText: 'Smart Speaker 1' }).getById('product_price')).toHaveText('6,36 $');
  });
});

test('prices in en-US by default', async ({ app }) => {
  await app.launch({ activity: '.CatalogActivity' });
  await expect(app.getById('product_row').filter({ hasText: 'Smart Speaker 1' }).getById('product_price')).toHaveText('$6.36');
});

test('fingerprint: offered once enrolled; the prompt waits, a match signs in', async ({ app }) => {
  await expect(fingerprint(app)).toBeHidden();
  await app.biometrics.enroll();
  await signInForm(app);
  await fingerprint(app).tap();
  await expect(app.getByText('Touch the fingerprint sensor')).toBeVisible();
  await app.biometrics.succeedNext();
  await expect(app).toHaveActivity('.CatalogActivity');
});

test('fingerprint: a failure says so', async ({ app }) => {
  await app.biometrics.enroll();
  await signInForm(app);
  await app.biometrics.failNext();
  await fingerprint(app).tap();
  await expect(app.getById('error')).toHaveText('Fingerprint not recognized');
  await expect(app).toHaveActivity('.LoginActivity');
});

test('fingerprint: a cancel leaves the form as it was', async ({ app }) => {
  await app.biometrics.enroll();
  await signInForm(app);
  await fingerprint(app).tap();
  await expect(app.getByText('Touch the fingerprint sensor')).toBeVisible();
  await app.biometrics.cancelNext();
  await expect(app.getByText('Touch the fingerprint sensor')).toBeHidden();
  await expect(app.getById('error')).toBeHidden();
  await expect(app.getById('email')).toHaveText('ana@example.com');
  await expect(app).toHaveActivity('.LoginActivity');
});

const pixel = (png, x, y) => { const img = PNG.sync.read(png); const i = (img.width * y + x) * 4; return [img.data[i], img.data[i + 1], img.data[i + 2]]; };
test.describe('dark', () => {
  test.use({ colorScheme: 'dark' });
  test('dark mode: the screen is drawn dark', async ({ app }) => {
    await expect(app.getByText('Sign in to continue')).toBeVisible();
    const [r, g, b] = pixel(await app.screenshot({ optional: false }), 20, 1500);
    expect(r + g + b).toBeLessThan(120);
  });
});
test('light mode by default', async ({ app }) => {
  await expect(app.getByText('Sign in to continue')).toBeVisible();
  const [r, g, b] = pixel(await app.screenshot({ optional: false }), 20, 1500);
  expect(r + g + b).toBeGreaterThan(700);
});

test('bad input: latitude 91 is refused naming it', async ({ app }) => {
  const e = await app.setGeolocation({ latitude: 91, longitude: 0 }).catch((x) => x);
  expect(e.code).toBe('INVALID_ARGUMENT');
  expect(e.message).toContain('app.setGeolocation:');
  expect(e.message).toContain('91 is not a latitude');
});

test('bad input: a camera image that is not an image', async ({ app }) => {
  const e = await app.camera.setImage(Buffer.from('plain text, not a picture')).catch((x) => x);
  expect(e.message).toContain('app.camera.setImage: a Buffer of 25 bytes is not an image the camera can return');
  expect(e.message).toContain('not a valid PNG or JPEG');
  const file = test.info().outputPath('photo.png');
  writeFileSync(file, 'GIF89a not really');
  await expect(app.camera.setImage(file)).rejects.toThrow(file + ' is not an image the camera can return');
});

test.describe('unknown time zone', () => {
  test.use({ timezoneId: 'Mars/Olympus_Mons' });
  test('bad input: an unknown time zone fails the launch naming it', async ({ app }) => {});
});
test.describe('unknown locale', () => {
  test.use({ locale: 'xx-YY' });
  test('bad input: an unknown locale fails the launch naming it', async ({ app }) => {});
});
`;

const NOTES = `import { test, expect } from 'nestwright';
test.use({ apk: 'fixtures/apks/notes.apk' });
const newNote = async (app, title, remind = false) => {
  await app.getByText('New note').tap();
  await app.getById('title').fill(title);
  if (remind) await app.getByRole('checkbox', { name: 'Remind me in 1 hour' }).tap();
  await app.getByRole('button', { name: 'Save' }).tap();
};

test.describe('Tokyo', () => {
  test.use({ timezoneId: 'Asia/Tokyo', locale: 'ja-JP' });
  test('time zone and clock: Created 09:00, then Today, Yesterday, the date', async ({ app }) => {
    await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
    await newNote(app, 'Buy milk');
    await expect(app.getById('note_date')).toHaveText('Today');
    await app.getByText('Buy milk').tap();
    await expect(app.getById('created')).toHaveText('Created 09:00');
    await app.press('back');
    await app.clock.setSystemTime('2026-01-16T08:00:00+09:00');
    await expect(app.getById('note_date')).toHaveText('Yesterday');
    await app.clock.setSystemTime('2026-01-20T08:00:00+09:00');
    await expect(app.getById('note_date')).toHaveText('2026/01/15');
  });
  test('pauseAt moves forward and stops; resume lets it run; going back is refused', async ({ app }) => {
    await app.clock.setFixedTime('2026-01-15T09:00:00+09:00');
    await app.clock.pauseAt('2026-01-15T10:30:00+09:00');
    await newNote(app, 'Paused');
    await app.getByText('Paused').tap();
    await expect(app.getById('created')).toHaveText('Created 10:30');
    await app.press('back');
    const e = await app.clock.pauseAt('2026-01-15T08:00:00+09:00').catch((x) => x);
    expect(e.code).toBe('USAGE');
    expect(e.message).toContain('pauseAt only moves forward');
    await app.clock.resume();
    await expect(app.clock.setFixedTime('yesterday')).rejects.toThrow('"yesterday" is not a time');
  });
});

test('fastForward fires the reminder; tapping its notification opens the note', async ({ app }) => {
  await app.clock.install({ time: '2026-01-15T08:00:00Z' });
  await newNote(app, 'Call the bank', true);
  await newNote(app, 'No reminder');
  await expect(app).not.toHaveNotification({ title: 'Reminder' }, { timeout: 500 });
  await app.clock.fastForward('59:00');
  expect(await app.notifications.list()).toEqual([]);
  await app.clock.fastForward('01:00');
  await expect(app).toHaveNotification({ title: 'Reminder', text: 'Call the bank' });
  const [n] = await app.notifications.list();
  expect(n).toMatchObject({ title: 'Reminder', text: 'Call the bank', channel: 'reminders', actions: [] });
  expect(n.postedAt - Date.parse('2026-01-15T09:00:00Z')).toBeGreaterThanOrEqual(0);
  expect(n.postedAt - Date.parse('2026-01-15T09:00:00Z')).toBeLessThan(60_000);
  await app.press('home');
  await n.tap();
  await expect(app).toHaveActivity('.EditNoteActivity');
  await expect(app.getById('title')).toHaveText('Call the bank');
  expect(await app.notifications.list()).toEqual([]);
});

test('bad input: tapping a notification that was dismissed', async ({ app }) => {
  await newNote(app, 'Water the plants', true);
  await app.clock.runFor('01:00:00');
  const [n] = await app.notifications.list();
  await n.dismiss();
  const e = await n.tap().catch((x) => x);
  expect(e.code).toBe('NOTIFICATION_NOT_FOUND');
  expect(e.message).toContain('notification.tap:');
  expect(e.message).toContain(JSON.stringify(n.id));
  expect(e.message).toContain('dismissed');
});

test('a failing toHaveNotification lists what it saw', async ({ app }) => {
  await newNote(app, 'Pay rent', true);
  await app.clock.fastForward(3_600_000);
  const e = await expect(app).toHaveNotification({ title: 'Reminder', text: 'Something else' }, { timeout: 300 }).catch((x) => x);
  expect(e.message).toContain('"Reminder" — "Pay rent" (reminders)');
});
`;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  run = await runInline({ 'shop-world.spec.ts': SHOP, 'notes-world.spec.ts': NOTES }, { workers: 1 });
});

const passes = [
  'one after another > location: each city of the table, the nearest one fills the address',
  "one after another > the next test's fresh instance has none of it: Mountain View, en-US prices",
  'de-DE > prices in the instance locale',
  'prices in en-US by default',
  'fingerprint: offered once enrolled; the prompt waits, a match signs in',
  'fingerprint: a failure says so',
  'fingerprint: a cancel leaves the form as it was',
  'dark > dark mode: the screen is drawn dark',
  'light mode by default',
  'bad input: latitude 91 is refused naming it',
  'bad input: a camera image that is not an image',
  'Tokyo > time zone and clock: Created 09:00, then Today, Yesterday, the date',
  'Tokyo > pauseAt moves forward and stops; resume lets it run; going back is refused',
  'fastForward fires the reminder; tapping its notification opens the note',
  'bad input: tapping a notification that was dismissed',
  'a failing toHaveNotification lists what it saw',
];

for (const title of passes) {
  test(title, () => {
    const r = run.result(title);
    expect(r.status, plain(r.error)).toBe('passed');
  });
}

test('each change of the world is a step of the test (and of its trajectory)', () => {
  const steps = run
    .result('fastForward fires the reminder; tapping its notification opens the note')
    .steps.map((s) => s.trim());
  expect(steps).toEqual(
    expect.arrayContaining([
      'Install the clock at 2026-01-15 08:00:00 UTC',
      'Fast-forward the clock 59:00',
      'Tap notification "Reminder"',
    ]),
  );
  const notes = run
    .result('fastForward fires the reminder; tapping its notification opens the note')
    .attachments.find((a) => a.name === 'nestwright-trajectory');
  const recorded = JSON.parse(Buffer.from(notes?.body ?? '', 'base64').toString()).steps.map(
    (s: { api: string; title: string }) => `${s.api}: ${s.title}`,
  );
  expect(recorded).toEqual(
    expect.arrayContaining([
      'app.clock.fastForward: Fast-forward the clock 01:00',
      'notification.tap: Tap notification "Reminder"',
    ]),
  );
  expect(
    recorded.some(
      (s: string) =>
        s.startsWith('expect.toHaveNotification: Expect com.nestwright.notes@') &&
        s.includes('to have notification title "Reminder", text "Call the bank"'),
    ),
  ).toBe(true);
  const shop = run.result('fingerprint: a failure says so').steps.map((s) => s.trim());
  expect(shop).toEqual(expect.arrayContaining(['Enrol a fingerprint', 'The next fingerprint fails']));
  const trajectory = run
    .result('fingerprint: a failure says so')
    .attachments.find((a) => a.name === 'nestwright-trajectory');
  expect(Buffer.from(trajectory?.body ?? '', 'base64').toString()).toContain('app.biometrics.failNext');
});

test('bad input: an unknown time zone or locale in test.use fails the launch, naming the option and the value', () => {
  const zone = run.result('unknown time zone > bad input: an unknown time zone fails the launch naming it');
  expect(zone.status).toBe('failed');
  expect(plain(zone.error)).toContain(
    'use.timezoneId: world_locale_set: INVALID_ARGUMENT: world_locale_set: unknown time zone "Mars/Olympus_Mons"',
  );
  const locale = run.result('unknown locale > bad input: an unknown locale fails the launch naming it');
  expect(locale.status).toBe('failed');
  expect(plain(locale.error)).toContain(
    'use.locale: world_locale_set: INVALID_ARGUMENT: world_locale_set: unknown locale "xx-YY"',
  );
});
