import { test, expect } from 'nestwright';

// Skills (skills/*.yaml) are recorded tasks whose every step proves what it did: replayed here
// as tests, with no model involved. `nestwright skill run skills/add-note.yaml --param title=…`
// replays the same files outside a test.

test.describe('notes', () => {
  test.use({ apk: 'fixtures/apks/notes.apk' });

  test('the add-note skill adds a note', async ({ app }) => {
    await expect(app).toPassSkill('skills/add-note.yaml', { title: 'Buy milk' });
    await expect(app.getById('note_title')).toHaveCount(1);
  });

  test('a skill is a step of a longer test', async ({ app }) => {
    await app.runSkill('skills/add-note.yaml', { title: 'Call Ana' });
    await app.runSkill('skills/add-note.yaml', { title: 'Pay rent' });
    await expect(app.getById('note_title')).toHaveCount(2);
  });
});

test.describe('settings', () => {
  test.use({ apk: 'com.android.settings' });

  test('the turn-on-wifi skill finds Wi-Fi by another name and turns it on', async ({ app }) => {
    await expect(app).toPassSkill('skills/turn-on-wifi.yaml');
  });
});

test.describe('shop', () => {
  test.use({ apk: 'fixtures/apks/shop.apk' });

  test('the sign-in skill reaches the catalog', async ({ app }) => {
    await expect(app).toPassSkill('skills/sign-in.yaml', { email: 'ana@example.com', password: 'hunter22' });
  });
});

test.describe('chat', () => {
  test.use({ apk: 'fixtures/apks/chat.apk' });

  test('the send-message skill runs the join-room skill, then sends', async ({ app }) => {
    await expect(app).toPassSkill('skills/send-message.yaml', { name: 'Skill user', message: 'Hello from a skill' });
  });
});
