import { check, col, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The sibling split (`siblings`): rows of look-alike controls — switches, checkboxes, radio
 * buttons, toolbar icon buttons — whose resource ids share a word (`toggle_sync`,
 * `toggle_backup`, …), one of them renamed in a new release, with and without the rows
 * reordered, with a label beside (or on) each control. The right answer is the renamed control,
 * found through its own label or the label beside it, or no heal; never a sibling, which still
 * exists with its own id and label. Written before the scorer was changed for this class, and
 * measured once as written (the first figure is in tests/heal/corpus/README.md).
 */
const T: Partial<V> = { key: 'target' };
const on = (yes: boolean): Partial<V> => (yes ? T : {});

/** A switch with no text of its own (a `Switch` beside its title), as most settings rows have. */
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
/** A checkbox with no text of its own, beside its label. */
const box = (id: string, more: Partial<V> = {}): V => ({
  role: 'checkbox',
  id,
  clickable: true,
  checkable: true,
  w: 168,
  h: 168,
  ...more,
});
const radio = (text: string | undefined, id: string, more: Partial<V> = {}): V => ({
  role: 'radio',
  ...(text ? { text } : {}),
  id,
  cls: 'android.widget.RadioButton',
  clickable: true,
  checkable: true,
  ...(text ? {} : { w: 168, h: 168 }),
  ...more,
});

/** One setting: its title and summary, and the control's id. */
interface Pref {
  title: string;
  summary: string;
  id: string;
  checked?: boolean;
  key?: boolean;
}
const P = (title: string, summary: string, id: string, checked = false): Pref => ({ title, summary, id, checked });
/** The same prefs with `id`'s renamed to `to` (and keyed as the target), others untouched. */
const renamed = (prefs: Pref[], id: string, to: string, more: Partial<Pref> = {}): Pref[] =>
  prefs.map((p) => (p.id === id ? { ...p, ...more, id: to, key: true } : p));
const keyed = (prefs: Pref[], id: string): Pref[] => prefs.map((p) => (p.id === id ? { ...p, key: true } : p));
const order = (prefs: Pref[], ids: string[]): Pref[] =>
  ids.map((id) => prefs.find((p) => p.id === id || p.id.includes(id))!);
const without = (prefs: Pref[], id: string): Pref[] => prefs.filter((p) => p.id !== id);

// Plain rows (a LinearLayout each, not a list): title and summary, the switch at the end.
const plainRow = (p: Pref, control: (p: Pref) => V): V =>
  row([col([txt(p.title, `${p.id}_title`), txt(p.summary, `${p.id}_summary`, { h: 72 })]), control(p)]);
// List rows (a RecyclerView of preferences): android:id/title and summary shared by every row.
const listRow = (p: Pref, control: (p: Pref) => V): V =>
  item([col([txt(p.title, 'title'), txt(p.summary, 'summary', { h: 72 })]), control(p)], 'pref_row', {
    row: true,
    h: 168,
  });
const asKnob = (p: Pref) => knob(p.id, { checked: !!p.checked, ...on(!!p.key) });
const asBox = (p: Pref) => box(p.id, { checked: !!p.checked, ...on(!!p.key) });

const PHOTOS = 'com.example.photos';
const BACKUP: Pref[] = [
  P('Sync photos', 'Keep your library up to date on all devices', 'toggle_sync', true),
  P('Back up over mobile data', 'May incur charges from your carrier', 'toggle_backup'),
  P('Save photo location', 'Add where a photo was taken to its details', 'toggle_location', true),
  P('Group similar faces', 'Find people across your photos', 'toggle_faces'),
];
const backupScreen = (prefs: Pref[]) =>
  screen(
    '.BackupSettingsActivity',
    [
      toolbar('Backup & sync', [icon('Help', 'help')]),
      txt('Signed in as rui.costa@example.com', 'account', { h: 120 }),
      ...prefs.map((p) => plainRow(p, asKnob)),
    ],
    { pkg: PHOTOS },
  );

const GALLERY: Pref[] = [
  P('Back up photos', 'Original quality · 12.4 GB', 'toggle_backup_photos', true),
  P('Back up videos', 'Original quality · 31.0 GB', 'toggle_backup_videos', true),
  P('Back up screenshots', 'Off', 'toggle_backup_screenshots'),
  P('Back up while charging only', 'Saves battery', 'toggle_backup_charging'),
];
const galleryScreen = (prefs: Pref[]) =>
  screen('.CloudBackupActivity', [toolbar('Cloud backup'), ...prefs.map((p) => listRow(p, asKnob))], { pkg: PHOTOS });

const CHAT = 'com.example.chat';
const NOTIFY: Pref[] = [
  P('Show message previews', 'Show text in new message notifications', 'toggle_previews', true),
  P('Sounds', 'Play a sound for new messages', 'toggle_sounds', true),
  P('Vibrate', 'Vibrate for new messages', 'toggle_vibrate'),
  P('App icon badge', 'Show the unread count on the app icon', 'toggle_badge', true),
  P('Reaction notifications', 'When someone reacts to your message', 'toggle_reactions'),
];
const notifyScreen = (prefs: Pref[]) =>
  screen(
    '.NotificationSettingsActivity',
    [toolbar('Notifications', [icon('Navigate up', 'up')]), ...prefs.map((p) => listRow(p, asKnob))],
    { pkg: CHAT },
  );

// Switches that carry their own label (a SwitchMaterial with text), on a fitness app's privacy screen.
const FIT = 'com.example.fitness';
const PRIVACY: Pref[] = [
  P('Share activity with friends', '', 'toggle_share_activity', true),
  P('Show me on leaderboards', '', 'toggle_leaderboard', true),
  P('Personalised ads', '', 'toggle_ads'),
  P('Precise location for routes', '', 'toggle_location', true),
];
const privacyScreen = (prefs: Pref[]) =>
  screen(
    '.PrivacyActivity',
    [
      toolbar('Privacy'),
      txt('Choose who sees your workouts', 'privacy_intro', { h: 120 }),
      ...prefs.map((p) => sw(p.title, p.id, { checked: !!p.checked, h: 168, ...on(!!p.key) })),
    ],
    { pkg: FIT },
  );

// Checkboxes with their own text: a shop's email preferences.
const SHOP = 'com.example.shop';
const EMAILS: Pref[] = [
  P('Order and delivery updates', '', 'cb_order_updates', true),
  P('Offers and promotions', '', 'cb_offers'),
  P('Product recommendations', '', 'cb_recommendations'),
  P('Weekly newsletter', '', 'cb_newsletter', true),
];
const emailScreen = (prefs: Pref[]) =>
  screen(
    '.EmailPreferencesActivity',
    [
      toolbar('Email preferences'),
      txt('Send me emails about', 'emails_intro', { h: 96 }),
      ...prefs.map((p) => check(p.title, p.id, { checked: !!p.checked, ...on(!!p.key) })),
      { role: 'button', text: 'Save preferences', id: 'save_prefs', clickable: true },
    ],
    { pkg: SHOP },
  );

// Checkboxes beside their labels: a search filter sheet.
const FILTERS: Pref[] = [
  P('In stock', 'Hide items you cannot order today', 'filter_in_stock', true),
  P('On sale', 'Discounted items only', 'filter_on_sale'),
  P('Free delivery', 'Orders over €25', 'filter_free_delivery'),
  P('Next-day delivery', 'Order by 6 pm', 'filter_next_day'),
];
const filterSheet = (prefs: Pref[], results = 'Show 128 results') =>
  screen(
    '.SearchActivity',
    [
      row([
        txt('Filters', 'sheet_title', { h: 168 }),
        { role: 'button', text: 'Clear all', id: 'clear_filters', clickable: true, w: 280, h: 168 },
      ]),
      ...prefs.map((p) => plainRow(p, asBox)),
      { role: 'button', text: results, id: 'apply_filters', clickable: true },
    ],
    { pkg: SHOP },
  );

// Checkboxes in a list: what a phone backup includes.
const PHONE = 'com.example.phonebackup';
const INCLUDE: Pref[] = [
  P('Photos and videos', '2,314 items', 'include_photos', true),
  P('Contacts', '412 contacts', 'include_contacts', true),
  P('Messages', '18,902 messages', 'include_messages', true),
  P('Call history', '1,120 calls', 'include_calls'),
  P('Device settings', 'Wi-Fi networks, wallpaper, ringtones', 'include_settings'),
];
const includeScreen = (prefs: Pref[]) =>
  screen(
    '.ChooseDataActivity',
    [
      toolbar('Choose what to back up'),
      ...prefs.map((p) => listRow(p, asBox)),
      { role: 'button', text: 'Back up now', id: 'backup_now', clickable: true },
    ],
    { pkg: PHONE },
  );

// Radio buttons with their own text: delivery options at checkout.
const DELIVERY: Pref[] = [
  P('Standard delivery · 3–5 days · Free', '', 'ship_standard', true),
  P('Express delivery · Next day · €4.99', '', 'ship_express'),
  P('Pick up in store · Ready in 2 hours', '', 'ship_pickup'),
];
const deliveryScreen = (prefs: Pref[]) =>
  screen(
    '.CheckoutActivity',
    [
      toolbar('Checkout'),
      txt('Delivery', 'delivery_header', { h: 96 }),
      ...prefs.map((p) => radio(p.title, p.id, { checked: !!p.checked, ...on(!!p.key) })),
      txt('Total €38.40', 'order_total'),
      { role: 'button', text: 'Place order', id: 'place_order', clickable: true },
    ],
    { pkg: SHOP },
  );

const VIDEO = 'com.example.video';
const QUALITY: Pref[] = [
  P('Auto (recommended)', '', 'quality_auto', true),
  P('Higher picture quality', '', 'quality_high'),
  P('Data saver', '', 'quality_saver'),
];
const qualityScreen = (prefs: Pref[]) =>
  screen(
    '.QualityActivity',
    [
      toolbar('Video quality', [icon('Navigate up', 'up')]),
      txt('On mobile networks', 'mobile_header', { h: 96 }),
      ...prefs.map((p) => radio(p.title, p.id, { checked: !!p.checked, ...on(!!p.key) })),
      txt('Applies to all videos you watch on this device', 'quality_note'),
    ],
    { pkg: VIDEO },
  );

// Radio buttons beside their labels, in a list: payment methods.
const PAYMENT: Pref[] = [
  P('Visa •••• 4242', 'Expires 08/27', 'pay_card', true),
  P('PayPal', 'ana.lima@example.com', 'pay_paypal'),
  P('MB WAY', '+351 912 345 678', 'pay_mbway'),
  P('Gift card', 'Balance €12.00', 'pay_giftcard'),
];
const asRadio = (p: Pref) => radio(undefined, p.id, { checked: !!p.checked, ...on(!!p.key) });
const paymentScreen = (prefs: Pref[]) =>
  screen(
    '.PaymentMethodActivity',
    [
      toolbar('Pay with'),
      ...prefs.map((p) => listRow(p, asRadio)),
      { role: 'button', text: 'Add a payment method', id: 'add_method', clickable: true },
    ],
    { pkg: SHOP },
  );

// Toolbar icon buttons.
interface Act {
  desc: string | undefined;
  id: string;
  key?: boolean;
}
const A = (desc: string, id: string): Act => ({ desc, id });
const icons = (acts: Act[]) =>
  acts.map((a) => ({ ...icon(a.desc ?? '', a.id, on(!!a.key)), ...(a.desc ? {} : { desc: undefined }) }));
const renamedAct = (acts: Act[], id: string, to: string, more: Partial<Act> = {}): Act[] =>
  acts.map((a) => (a.id === id ? { ...a, ...more, id: to, key: true } : a));
const keyedAct = (acts: Act[], id: string): Act[] => acts.map((a) => (a.id === id ? { ...a, key: true } : a));
const pick = (acts: Act[], ids: string[]): Act[] =>
  ids.map((id) => acts.find((a) => a.id === id || a.id.includes(id))!);

const VIEWER: Act[] = [
  A('Share', 'action_share'),
  A('Edit', 'action_edit'),
  A('Add to favourites', 'action_favourite'),
  A('Delete', 'action_delete'),
];
const photoViewer = (acts: Act[], below: V[] = []) =>
  screen(
    '.PhotoViewerActivity',
    [
      row([icon('Navigate up', 'up'), txt('Mar 9, 2026 · 18:42', 'photo_date', { h: 168 }), ...icons(acts)]),
      { role: 'image', desc: 'Photo: sunset over the river', id: 'photo', h: 1600 },
      txt('Lisbon, Portugal', 'photo_place'),
      ...below,
    ],
    { pkg: PHOTOS },
  );

const MAIL = 'com.example.mail';
const MESSAGE: Act[] = [
  A('Archive', 'menu_archive'),
  A('Delete', 'menu_delete'),
  A('Mark as unread', 'menu_unread'),
  A('Move to', 'menu_move'),
];
const mailMessage = (acts: Act[]) =>
  screen(
    '.MessageActivity',
    [
      row([icon('Navigate up', 'up'), ...icons(acts)], { h: 168 }),
      txt('Your order has shipped', 'subject', { h: 120 }),
      txt('Shop · orders@example.com · 09:14', 'sender'),
      txt('Good news: order #48213 left our warehouse this morning and should arrive on Thursday.', 'body', { h: 600 }),
      row([
        { role: 'button', text: 'Reply', id: 'reply', clickable: true },
        { role: 'button', text: 'Forward', id: 'forward', clickable: true },
      ]),
    ],
    { pkg: MAIL },
  );

const NOTES = 'com.example.notes';
const FORMAT: Act[] = [
  A('Bold', 'format_bold'),
  A('Italic', 'format_italic'),
  A('Underline', 'format_underline'),
  A('Bulleted list', 'format_bullets'),
  A('Checklist', 'format_checklist'),
];
const editor = (acts: Act[]) =>
  screen(
    '.EditorActivity',
    [
      toolbar('Edit note', [icon('Undo', 'undo'), icon('Redo', 'redo')]),
      { role: 'textbox', text: 'Packing list for the trip', id: 'note_body', editable: true, clickable: true, h: 1400 },
      row(icons(acts)),
    ],
    { pkg: NOTES },
  );

const H = 'holdout' as const;

export const SIBLINGS: DriftCase[] = [
  // Switches beside their titles, plain rows (photos: Backup & sync).
  {
    name: 'photos: Sync photos switch re-ided toggle_sync → sync_switch, rows in place; Back up over mobile data (toggle_backup) below it',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_sync',
    before: backupScreen(keyed(BACKUP, 'toggle_sync')),
    after: backupScreen(renamed(BACKUP, 'toggle_sync', 'sync_switch')),
  },
  {
    name: 'photos: Sync photos switch re-ided sync_switch and its row moved to the bottom; toggle_backup now sits in its slot',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_sync',
    before: backupScreen(keyed(BACKUP, 'toggle_sync')),
    after: backupScreen(
      order(renamed(BACKUP, 'toggle_sync', 'sync_switch'), [
        'toggle_backup',
        'toggle_location',
        'toggle_faces',
        'sync_switch',
      ]),
    ),
  },
  {
    name: 'photos: Save photo location switch re-ided location_switch and moved to the top (privacy first)',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_location',
    before: backupScreen(keyed(BACKUP, 'toggle_location')),
    after: backupScreen(
      order(renamed(BACKUP, 'toggle_location', 'location_switch'), [
        'location_switch',
        'toggle_sync',
        'toggle_backup',
        'toggle_faces',
      ]),
    ),
  },
  {
    name: 'photos: Back up over mobile data re-ided cellular_backup, title reworded Use mobile data for backup, rows reordered',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_backup',
    before: backupScreen(keyed(BACKUP, 'toggle_backup')),
    after: backupScreen(
      order(renamed(BACKUP, 'toggle_backup', 'cellular_backup', { title: 'Use mobile data for backup' }), [
        'toggle_sync',
        'toggle_faces',
        'cellular_backup',
        'toggle_location',
      ]),
    ),
  },
  {
    name: 'photos: every switch re-ided toggle_x → x_switch and the rows reordered; the Group similar faces one, by its title',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_faces',
    before: backupScreen(keyed(BACKUP, 'toggle_faces')),
    after: backupScreen(
      order(
        BACKUP.map((p) => ({
          ...p,
          id: `${p.id.replace('toggle_', '')}_switch`,
          ...(p.id === 'toggle_faces' ? { key: true } : {}),
        })),
        ['faces', 'sync', 'location', 'backup'],
      ),
    ),
  },
  {
    name: 'photos: Sync photos removed (sync is always on now); the other switches keep their ids — no heal',
    category: 'removed',
    split: H,
    selector: 'id=toggle_sync',
    before: backupScreen(keyed(BACKUP, 'toggle_sync')),
    after: backupScreen(without(BACKUP, 'toggle_sync')),
  },
  {
    name: 'photos: Group similar faces removed (not offered in this region) and the rows reordered — no heal',
    category: 'removed',
    split: H,
    selector: 'id=toggle_faces',
    before: backupScreen(keyed(BACKUP, 'toggle_faces')),
    after: backupScreen(order(without(BACKUP, 'toggle_faces'), ['toggle_location', 'toggle_sync', 'toggle_backup'])),
  },

  // Switches in a list whose ids share two words (cloud backup).
  {
    name: 'gallery: Back up photos switch re-ided photos_backup_switch; Back up videos (toggle_backup_videos) right below shares most of its id',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_backup_photos',
    before: galleryScreen(keyed(GALLERY, 'toggle_backup_photos')),
    after: galleryScreen(renamed(GALLERY, 'toggle_backup_photos', 'photos_backup_switch')),
  },
  {
    name: 'gallery: Back up photos re-ided photos_backup_switch and the rows reordered (videos first)',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_backup_photos',
    before: galleryScreen(keyed(GALLERY, 'toggle_backup_photos')),
    after: galleryScreen(
      order(renamed(GALLERY, 'toggle_backup_photos', 'photos_backup_switch'), [
        'toggle_backup_videos',
        'photos_backup_switch',
        'toggle_backup_charging',
        'toggle_backup_screenshots',
      ]),
    ),
  },
  {
    name: 'gallery: Back up photos removed (photos always back up now); Back up videos moved to the top — no heal',
    category: 'removed',
    split: H,
    selector: 'id=toggle_backup_photos',
    before: galleryScreen(keyed(GALLERY, 'toggle_backup_photos')),
    after: galleryScreen(without(GALLERY, 'toggle_backup_photos')),
  },
  {
    name: 'gallery: Back up screenshots re-ided screenshots_switch, rows reordered',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_backup_screenshots',
    before: galleryScreen(keyed(GALLERY, 'toggle_backup_screenshots')),
    after: galleryScreen(
      order(renamed(GALLERY, 'toggle_backup_screenshots', 'screenshots_switch'), [
        'toggle_backup_charging',
        'toggle_backup_photos',
        'screenshots_switch',
        'toggle_backup_videos',
      ]),
    ),
  },

  // Switches in a list (chat: Notifications).
  {
    name: 'chat: Vibrate switch re-ided vibrate_switch, rows in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_vibrate',
    before: notifyScreen(keyed(NOTIFY, 'toggle_vibrate')),
    after: notifyScreen(renamed(NOTIFY, 'toggle_vibrate', 'vibrate_switch')),
  },
  {
    name: 'chat: Sounds switch re-ided notification_sound and the rows reordered (Vibrate now where Sounds was)',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_sounds',
    before: notifyScreen(keyed(NOTIFY, 'toggle_sounds')),
    after: notifyScreen(
      order(renamed(NOTIFY, 'toggle_sounds', 'notification_sound'), [
        'toggle_previews',
        'toggle_vibrate',
        'toggle_reactions',
        'notification_sound',
        'toggle_badge',
      ]),
    ),
  },
  {
    name: 'chat: App icon badge re-ided badge_switch, a new Do not disturb row (dnd_switch) inserted above it',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_badge',
    before: notifyScreen(keyed(NOTIFY, 'toggle_badge')),
    after: notifyScreen([
      ...NOTIFY.slice(0, 3),
      P('Do not disturb', 'Mute all chats until tomorrow', 'dnd_switch'),
      ...renamed(NOTIFY.slice(3), 'toggle_badge', 'badge_switch'),
    ]),
  },
  {
    name: 'chat: Reaction notifications removed (reactions now follow Sounds) — no heal',
    category: 'removed',
    split: H,
    selector: 'id=toggle_reactions',
    before: notifyScreen(keyed(NOTIFY, 'toggle_reactions')),
    after: notifyScreen(without(NOTIFY, 'toggle_reactions')),
  },
  {
    name: 'chat: Show message previews re-ided previews_switch, its title now Message previews, rows reordered',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_previews',
    before: notifyScreen(keyed(NOTIFY, 'toggle_previews')),
    after: notifyScreen(
      order(renamed(NOTIFY, 'toggle_previews', 'previews_switch', { title: 'Message previews' }), [
        'toggle_sounds',
        'toggle_vibrate',
        'previews_switch',
        'toggle_badge',
        'toggle_reactions',
      ]),
    ),
  },

  // Switches with their own text (fitness: Privacy).
  {
    name: 'fitness: Show me on leaderboards switch re-ided leaderboard_visibility, rows reordered',
    category: 'reordered',
    split: H,
    selector: 'id=toggle_leaderboard',
    before: privacyScreen(keyed(PRIVACY, 'toggle_leaderboard')),
    after: privacyScreen(
      order(renamed(PRIVACY, 'toggle_leaderboard', 'leaderboard_visibility'), [
        'toggle_location',
        'toggle_share_activity',
        'leaderboard_visibility',
        'toggle_ads',
      ]),
    ),
  },
  {
    name: 'fitness: Personalised ads re-ided ad_personalisation and reworded Ad personalisation',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_ads',
    before: privacyScreen(keyed(PRIVACY, 'toggle_ads')),
    after: privacyScreen(renamed(PRIVACY, 'toggle_ads', 'ad_personalisation', { title: 'Ad personalisation' })),
  },
  {
    name: 'fitness: Precise location for routes removed (routes use approximate location) — no heal; Share activity with friends stays',
    category: 'removed',
    split: H,
    selector: 'id=toggle_location',
    before: privacyScreen(keyed(PRIVACY, 'toggle_location')),
    after: privacyScreen(without(PRIVACY, 'toggle_location')),
  },
  {
    name: 'photos: a redesign puts each title on its switch (Material 3), drops the summaries and re-ids Sync photos sync_switch; the others keep their ids',
    category: 'renamed-id',
    split: H,
    selector: 'id=toggle_sync',
    before: backupScreen(keyed(BACKUP, 'toggle_sync')),
    after: screen(
      '.BackupSettingsActivity',
      [
        toolbar('Backup & sync', [icon('Help', 'help')]),
        txt('Signed in as rui.costa@example.com', 'account', { h: 120 }),
        ...renamed(BACKUP, 'toggle_sync', 'sync_switch').map((p) =>
          sw(p.title, p.id, { checked: !!p.checked, h: 168, ...on(!!p.key) }),
        ),
      ],
      { pkg: PHOTOS },
    ),
  },

  // Checkboxes with their own text (shop: Email preferences).
  {
    name: 'shop: Offers and promotions checkbox re-ided offers_checkbox, rows in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=cb_offers',
    before: emailScreen(keyed(EMAILS, 'cb_offers')),
    after: emailScreen(renamed(EMAILS, 'cb_offers', 'offers_checkbox')),
  },
  {
    name: 'shop: Offers and promotions re-ided marketing_opt_in and the list sorted (newsletter first)',
    category: 'reordered',
    split: H,
    selector: 'id=cb_offers',
    before: emailScreen(keyed(EMAILS, 'cb_offers')),
    after: emailScreen(
      order(renamed(EMAILS, 'cb_offers', 'marketing_opt_in'), [
        'cb_newsletter',
        'cb_order_updates',
        'marketing_opt_in',
        'cb_recommendations',
      ]),
    ),
  },
  {
    name: 'shop: Weekly newsletter removed (the newsletter ended) — no heal; Product recommendations slid into its slot',
    category: 'removed',
    split: H,
    selector: 'id=cb_newsletter',
    before: emailScreen(keyed(EMAILS, 'cb_newsletter')),
    after: emailScreen(without(EMAILS, 'cb_newsletter')),
  },

  // Checkboxes beside their labels (shop: filters).
  {
    name: 'shop filters: On sale checkbox re-ided sale_only, rows in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=filter_on_sale',
    before: filterSheet(keyed(FILTERS, 'filter_on_sale')),
    after: filterSheet(renamed(FILTERS, 'filter_on_sale', 'sale_only')),
  },
  {
    name: 'shop filters: Free delivery checkbox re-ided free_shipping_check, rows reordered (delivery options first)',
    category: 'reordered',
    split: H,
    selector: 'id=filter_free_delivery',
    before: filterSheet(keyed(FILTERS, 'filter_free_delivery')),
    after: filterSheet(
      order(renamed(FILTERS, 'filter_free_delivery', 'free_shipping_check'), [
        'filter_next_day',
        'free_shipping_check',
        'filter_in_stock',
        'filter_on_sale',
      ]),
    ),
  },
  {
    name: 'shop filters: every checkbox re-ided filter_x → chk_x and the rows reordered; the In stock one, by its label',
    category: 'reordered',
    split: H,
    selector: 'id=filter_in_stock',
    before: filterSheet(keyed(FILTERS, 'filter_in_stock')),
    after: filterSheet(
      order(
        FILTERS.map((p) => ({
          ...p,
          id: p.id.replace('filter_', 'chk_'),
          ...(p.id === 'filter_in_stock' ? { key: true } : {}),
        })),
        ['next_day', 'on_sale', 'in_stock', 'free_delivery'],
      ),
    ),
  },
  {
    name: 'shop filters: Next-day delivery removed (not offered in this area) — no heal; Free delivery stays',
    category: 'removed',
    split: H,
    selector: 'id=filter_next_day',
    before: filterSheet(keyed(FILTERS, 'filter_next_day')),
    after: filterSheet(without(FILTERS, 'filter_next_day'), 'Show 131 results'),
  },

  // Checkboxes in a list (phone backup: what to include).
  {
    name: 'phone backup: Contacts checkbox re-ided contacts_selected, rows reordered (messages first)',
    category: 'reordered',
    split: H,
    selector: 'id=include_contacts',
    before: includeScreen(keyed(INCLUDE, 'include_contacts')),
    after: includeScreen(
      order(renamed(INCLUDE, 'include_contacts', 'contacts_selected'), [
        'include_messages',
        'include_photos',
        'contacts_selected',
        'include_calls',
        'include_settings',
      ]),
    ),
  },
  {
    name: 'phone backup: Call history checkbox re-ided call_log_check, rows in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=include_calls',
    before: includeScreen(keyed(INCLUDE, 'include_calls')),
    after: includeScreen(renamed(INCLUDE, 'include_calls', 'call_log_check')),
  },
  {
    name: 'phone backup: Device settings removed (settings back up on their own now) — no heal',
    category: 'removed',
    split: H,
    selector: 'id=include_settings',
    before: includeScreen(keyed(INCLUDE, 'include_settings')),
    after: includeScreen(without(INCLUDE, 'include_settings')),
  },

  // Radio buttons with their own text (checkout delivery, video quality).
  {
    name: 'checkout: Express delivery radio re-ided delivery_express, options in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=ship_express',
    before: deliveryScreen(keyed(DELIVERY, 'ship_express')),
    after: deliveryScreen(renamed(DELIVERY, 'ship_express', 'delivery_express')),
  },
  {
    name: 'checkout: Express delivery re-ided express_option, listed first and now €5.99',
    category: 'reordered',
    split: H,
    selector: 'id=ship_express',
    before: deliveryScreen(keyed(DELIVERY, 'ship_express')),
    after: deliveryScreen(
      order(renamed(DELIVERY, 'ship_express', 'express_option', { title: 'Express delivery · Next day · €5.99' }), [
        'express_option',
        'ship_standard',
        'ship_pickup',
      ]),
    ),
  },
  {
    name: 'checkout: Pick up in store removed (the store closed) — no heal',
    category: 'removed',
    split: H,
    selector: 'id=ship_pickup',
    before: deliveryScreen(keyed(DELIVERY, 'ship_pickup')),
    after: deliveryScreen(without(DELIVERY, 'ship_pickup')),
  },
  {
    name: 'video: Higher picture quality radio re-ided hq_radio, options reordered (data saver first)',
    category: 'reordered',
    split: H,
    selector: 'id=quality_high',
    before: qualityScreen(keyed(QUALITY, 'quality_high')),
    after: qualityScreen(
      order(renamed(QUALITY, 'quality_high', 'hq_radio'), ['quality_saver', 'quality_auto', 'hq_radio']),
    ),
  },
  {
    name: 'video: Data saver re-ided save_data and reworded Save data',
    category: 'renamed-id',
    split: H,
    selector: 'id=quality_saver',
    before: qualityScreen(keyed(QUALITY, 'quality_saver')),
    after: qualityScreen(renamed(QUALITY, 'quality_saver', 'save_data', { title: 'Save data' })),
  },

  // Radio buttons beside their labels, in a list (payment methods).
  {
    name: 'payment: PayPal radio re-ided paypal_option, methods reordered (PayPal last)',
    category: 'reordered',
    split: H,
    selector: 'id=pay_paypal',
    before: paymentScreen(keyed(PAYMENT, 'pay_paypal')),
    after: paymentScreen(
      order(renamed(PAYMENT, 'pay_paypal', 'paypal_option'), [
        'pay_card',
        'pay_mbway',
        'pay_giftcard',
        'paypal_option',
      ]),
    ),
  },
  {
    name: 'payment: Gift card removed (balance used up) — no heal; MB WAY stays',
    category: 'removed',
    split: H,
    selector: 'id=pay_giftcard',
    before: paymentScreen(keyed(PAYMENT, 'pay_giftcard')),
    after: paymentScreen(without(PAYMENT, 'pay_giftcard')),
  },

  // Toolbar icon buttons.
  {
    name: 'photo viewer: Edit icon re-ided edit_button, icons in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=action_edit',
    before: photoViewer(keyedAct(VIEWER, 'action_edit')),
    after: photoViewer(renamedAct(VIEWER, 'action_edit', 'edit_button')),
  },
  {
    name: 'photo viewer: Add to favourites icon re-ided favourite_toggle and moved first; Share now in its slot',
    category: 'reordered',
    split: H,
    selector: 'id=action_favourite',
    before: photoViewer(keyedAct(VIEWER, 'action_favourite')),
    after: photoViewer(
      pick(renamedAct(VIEWER, 'action_favourite', 'favourite_toggle'), [
        'favourite_toggle',
        'action_share',
        'action_edit',
        'action_delete',
      ]),
    ),
  },
  {
    name: 'photo viewer: Delete moved off the toolbar into the overflow menu (More options) — its icon is gone, the other icons stay; no heal',
    category: 'removed',
    split: H,
    selector: 'id=action_delete',
    before: photoViewer(keyedAct(VIEWER, 'action_delete')),
    after: photoViewer([...VIEWER.filter((a) => a.id !== 'action_delete'), A('More options', 'overflow')]),
  },
  {
    name: 'mail: Mark as unread icon re-ided mark_unread, icons reordered',
    category: 'reordered',
    split: H,
    selector: 'id=menu_unread',
    before: mailMessage(keyedAct(MESSAGE, 'menu_unread')),
    after: mailMessage(
      pick(renamedAct(MESSAGE, 'menu_unread', 'mark_unread'), [
        'mark_unread',
        'menu_archive',
        'menu_delete',
        'menu_move',
      ]),
    ),
  },
  {
    name: 'mail: every icon re-ided menu_x → action_x and reordered; the Archive one, by its description',
    category: 'reordered',
    split: H,
    selector: 'id=menu_archive',
    before: mailMessage(keyedAct(MESSAGE, 'menu_archive')),
    after: mailMessage(
      pick(
        MESSAGE.map((a) => ({
          ...a,
          id: a.id.replace('menu_', 'action_'),
          ...(a.id === 'menu_archive' ? { key: true } : {}),
        })),
        ['delete', 'archive', 'move', 'unread'],
      ),
    ),
  },
  {
    name: 'mail: Move to icon re-ided move_to_folder and lost its description (an accessibility regression); the others keep theirs',
    category: 'renamed-id',
    split: H,
    selector: 'id=menu_move',
    before: mailMessage(keyedAct(MESSAGE, 'menu_move')),
    after: mailMessage(renamedAct(MESSAGE, 'menu_move', 'move_to_folder', { desc: undefined })),
  },
  {
    name: 'editor: Italic icon re-ided italic_button, formatting bar in place',
    category: 'renamed-id',
    split: H,
    selector: 'id=format_italic',
    before: editor(keyedAct(FORMAT, 'format_italic')),
    after: editor(renamedAct(FORMAT, 'format_italic', 'italic_button')),
  },
  {
    name: 'editor: Underline removed from the formatting bar — no heal; Bold and Italic stay',
    category: 'removed',
    split: H,
    selector: 'id=format_underline',
    before: editor(keyedAct(FORMAT, 'format_underline')),
    after: editor(FORMAT.filter((a) => a.id !== 'format_underline')),
  },
  {
    name: 'editor: Checklist icon re-ided toggle_checklist and moved first in the bar',
    category: 'reordered',
    split: H,
    selector: 'id=format_checklist',
    before: editor(keyedAct(FORMAT, 'format_checklist')),
    after: editor(
      pick(renamedAct(FORMAT, 'format_checklist', 'toggle_checklist'), [
        'toggle_checklist',
        'format_bold',
        'format_italic',
        'format_underline',
        'format_bullets',
      ]),
    ),
  },
];
