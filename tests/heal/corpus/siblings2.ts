import { check, col, item, row, screen, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The second sibling split (`siblings2`): a master control and its sub-controls, whose ids
 * extend the master's (`toggle_sync` and `toggle_sync_photos`, `notify` and `notify_sound`), so a
 * sibling's id resembles the target's more than the target's new id does. Written after the
 * first `siblings` measure, and measured once with the scorer as it was then (figures in
 * tests/heal/corpus/README.md) before the scorer changed.
 */
const T: Partial<V> = { key: 'target' };
const on = (yes: boolean): Partial<V> => (yes ? T : {});
const knob = (id: string, more: Partial<V> = {}): V => ({
  role: 'switch',
  id,
  cls: 'com.google.android.material.materialswitch.MaterialSwitch',
  clickable: true,
  checkable: true,
  w: 200,
  h: 168,
  ...more,
});
const radio = (id: string, more: Partial<V> = {}): V => ({
  role: 'radio',
  id,
  cls: 'android.widget.RadioButton',
  clickable: true,
  checkable: true,
  w: 168,
  h: 168,
  ...more,
});

interface Pref {
  title: string;
  summary: string;
  id: string;
  key?: boolean;
}
const P = (title: string, summary: string, id: string): Pref => ({ title, summary, id });
const keyed = (prefs: Pref[], id: string): Pref[] => prefs.map((p) => (p.id === id ? { ...p, key: true } : p));
const renamed = (prefs: Pref[], id: string, to: string): Pref[] =>
  prefs.map((p) => (p.id === id ? { ...p, id: to, key: true } : p));
const order = (prefs: Pref[], ids: string[]): Pref[] => ids.map((id) => prefs.find((p) => p.id === id)!);
const without = (prefs: Pref[], id: string): Pref[] => prefs.filter((p) => p.id !== id);

const plainRow = (p: Pref, control: V): V =>
  row([col([txt(p.title, `${p.id}_title`), txt(p.summary, `${p.id}_summary`, { h: 72 })]), control]);
const listRow = (p: Pref, control: V): V =>
  item([col([txt(p.title, 'title'), txt(p.summary, 'summary', { h: 72 })]), control], 'pref_row', {
    row: true,
    h: 168,
  });

const ACCOUNTS = 'com.example.accounts';
const SYNC: Pref[] = [
  P('Sync', 'Automatically sync app data', 'toggle_sync'),
  P('Photos', 'Last synced 09:12', 'toggle_sync_photos'),
  P('Contacts', 'Last synced 09:10', 'toggle_sync_contacts'),
  P('Calendar', 'Last synced 08:55', 'toggle_sync_calendar'),
];
const syncScreen = (prefs: Pref[]) =>
  screen(
    '.AccountSyncActivity',
    [
      toolbar('Account sync'),
      txt('rui.costa@example.com', 'account_name', { h: 120 }),
      ...prefs.map((p) => plainRow(p, knob(p.id, on(!!p.key)))),
    ],
    { pkg: ACCOUNTS },
  );

const MESSENGER = 'com.example.messenger';
const NOTIFY: Pref[] = [
  P('Allow notifications', 'For new messages and calls', 'notify'),
  P('Sound', 'Default (Chime)', 'notify_sound'),
  P('Vibrate', 'Short', 'notify_vibrate'),
  P('Pop on screen', 'Show a banner over other apps', 'notify_popup'),
];
const notifyScreen = (prefs: Pref[]) =>
  screen(
    '.NotificationsActivity',
    [toolbar('Notifications'), ...prefs.map((p) => listRow(p, knob(p.id, on(!!p.key))))],
    { pkg: MESSENGER },
  );

const NEWS = 'com.example.news';
const EMAIL: Array<{ text: string; id: string; key?: boolean }> = [
  { text: 'Email me', id: 'cb_email' },
  { text: 'Breaking news by email', id: 'cb_email_breaking' },
  { text: 'Morning briefing by email', id: 'cb_email_briefing' },
  { text: 'Offers from our partners by email', id: 'cb_email_partners' },
];
const emailScreen = (boxes: typeof EMAIL) =>
  screen('.NewsletterActivity', [toolbar('Newsletters'), ...boxes.map((b) => check(b.text, b.id, on(!!b.key)))], {
    pkg: NEWS,
  });

const STREAM = 'com.example.stream';
const PLANS: Pref[] = [
  P('Monthly', '€9.99 a month', 'plan_monthly'),
  P('Monthly · Family', '€15.99 a month, up to 6 people', 'plan_monthly_family'),
  P('Yearly', '€99.99 a year (save 17%)', 'plan_yearly'),
];
const planScreen = (prefs: Pref[]) =>
  screen(
    '.ChoosePlanActivity',
    [
      toolbar('Choose a plan'),
      ...prefs.map((p) => listRow(p, radio(p.id, on(!!p.key)))),
      { role: 'button', text: 'Continue', id: 'continue', clickable: true },
    ],
    { pkg: STREAM },
  );

const H = 'holdout' as const;

export const SIBLINGS2: DriftCase[] = [
  {
    name: 'accounts: the master Sync switch re-ided auto_sync, rows in place; toggle_sync_photos (an id that extends the old one) right below',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_sync',
    before: syncScreen(keyed(SYNC, 'toggle_sync')),
    after: syncScreen(renamed(SYNC, 'toggle_sync', 'auto_sync')),
  },
  {
    name: 'accounts: the master Sync switch re-ided auto_sync and moved to the bottom; Photos now in its slot',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_sync',
    before: syncScreen(keyed(SYNC, 'toggle_sync')),
    after: syncScreen(
      order(renamed(SYNC, 'toggle_sync', 'auto_sync'), [
        'toggle_sync_photos',
        'toggle_sync_contacts',
        'toggle_sync_calendar',
        'auto_sync',
      ]),
    ),
  },
  {
    name: 'accounts: the master Sync switch removed (each kind syncs on its own now) — no heal; the Photos switch (toggle_sync_photos) slid into its slot',
    category: 'removed',
    split: H,
    selector: 'id=toggle_sync',
    before: syncScreen(keyed(SYNC, 'toggle_sync')),
    after: syncScreen(without(SYNC, 'toggle_sync')),
  },
  {
    name: 'messenger: Allow notifications (notify) re-ided notifications_enabled, rows reordered (Sound first)',
    category: 'reordered',
    split: H,
    selector: 'id=notify',
    before: notifyScreen(keyed(NOTIFY, 'notify')),
    after: notifyScreen(
      order(renamed(NOTIFY, 'notify', 'notifications_enabled'), [
        'notify_sound',
        'notifications_enabled',
        'notify_vibrate',
        'notify_popup',
      ]),
    ),
  },
  {
    name: 'messenger: Allow notifications removed (the system setting rules now) — no heal; notify_sound in its slot',
    category: 'removed',
    split: H,
    selector: 'id=notify',
    before: notifyScreen(keyed(NOTIFY, 'notify')),
    after: notifyScreen(without(NOTIFY, 'notify')),
  },
  {
    name: 'news: Email me checkbox (cb_email) re-ided email_opt_in, boxes in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=cb_email',
    before: emailScreen(EMAIL.map((b) => (b.id === 'cb_email' ? { ...b, key: true } : b))),
    after: emailScreen(EMAIL.map((b) => (b.id === 'cb_email' ? { ...b, id: 'email_opt_in', key: true } : b))),
  },
  {
    name: 'news: Email me removed (each newsletter is opted into on its own) — no heal',
    category: 'removed',
    split: H,
    selector: 'id=cb_email',
    before: emailScreen(EMAIL.map((b) => (b.id === 'cb_email' ? { ...b, key: true } : b))),
    after: emailScreen(EMAIL.filter((b) => b.id !== 'cb_email')),
  },
  {
    name: 'stream: Monthly plan radio re-ided monthly_option, plans reordered (Yearly first); Monthly · Family (plan_monthly_family) beside it',
    category: 'reordered',
    split: H,
    selector: 'id=plan_monthly',
    before: planScreen(keyed(PLANS, 'plan_monthly')),
    after: planScreen(
      order(renamed(PLANS, 'plan_monthly', 'monthly_option'), ['plan_yearly', 'plan_monthly_family', 'monthly_option']),
    ),
  },
  {
    name: 'stream: Monthly plan removed (yearly only now) — no heal; the family plan stays',
    category: 'removed',
    split: H,
    selector: 'id=plan_monthly',
    before: planScreen(keyed(PLANS, 'plan_monthly')),
    after: planScreen(without(PLANS, 'plan_monthly')),
  },
];
