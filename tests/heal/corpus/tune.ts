import { btn, check, field, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The tuning split: the weights, THRESHOLD, MARGIN and IDENTITY in framework/heal were set
 * looking at these cases (notes, login, shop catalog, settings).
 */
const NOTES = 'com.nestwright.notes';
const main = (
  o: {
    newText?: string;
    newId?: string;
    newKey?: boolean;
    bottom?: V[];
    actions?: V[];
    notes?: string[];
    rowId?: string;
    titleId?: string;
  } = {},
) =>
  screen(
    '.MainActivity',
    [
      toolbar('Notes', o.actions ?? [icon('Search notes', 'search'), icon('More options', 'overflow')]),
      ...(o.notes ?? []).map((t) =>
        item(
          [txt(t, o.titleId ?? 'note_title'), txt(`About ${t.toLowerCase()}`, 'note_snippet', { h: 72 })],
          o.rowId ?? 'note_row',
        ),
      ),
      ...(o.bottom ?? [
        btn(o.newText ?? 'New note', o.newId ?? 'new_note', o.newKey === false ? {} : { key: 'target' }),
      ]),
    ],
    { pkg: NOTES },
  );
const edit = (
  o: {
    titleId?: string;
    titleHint?: string | null;
    bodyId?: string;
    bodyHint?: string | null;
    save?: V;
    actions?: V[];
    key?: 'title' | 'body' | 'save';
  } = {},
) =>
  screen(
    '.EditNoteActivity',
    [
      toolbar('Edit note', o.actions ?? [icon('Delete note', 'delete')]),
      field(
        o.titleHint === null ? undefined : (o.titleHint ?? 'Title'),
        o.titleId ?? 'title',
        o.key === 'title' ? { key: 'target' } : {},
      ),
      field(o.bodyHint === null ? undefined : (o.bodyHint ?? 'Note'), o.bodyId ?? 'body', {
        h: 480,
        ...(o.key === 'body' ? { key: 'target' } : {}),
      }),
      o.save ?? btn('Save', 'save', o.key === 'save' ? { key: 'target' } : {}),
    ],
    { pkg: NOTES },
  );

const LOGIN = 'com.nestwright.shop';
const login = (
  o: {
    emailId?: string;
    emailHint?: string;
    signText?: string;
    signId?: string;
    buttons?: V[];
    forgot?: V | null;
    register?: V;
    top?: V[];
    key?: 'email' | 'sign' | 'forgot' | 'register';
  } = {},
) =>
  screen(
    '.LoginActivity',
    [
      toolbar('Welcome back'),
      ...(o.top ?? []),
      field(o.emailHint ?? 'Email', o.emailId ?? 'email', o.key === 'email' ? { key: 'target' } : {}),
      field('Password', 'password', { password: true }),
      ...(o.buttons ?? [
        btn(o.signText ?? 'Sign in', o.signId ?? 'sign_in', o.key === 'sign' ? { key: 'target' } : {}),
      ]),
      ...(o.forgot === null
        ? []
        : [
            o.forgot ??
              txt('Forgot password?', 'forgot', { clickable: true, ...(o.key === 'forgot' ? { key: 'target' } : {}) }),
          ]),
      o.register ?? btn('Create account', 'register', o.key === 'register' ? { key: 'target' } : {}),
    ],
    { pkg: LOGIN },
  );

const catalog = (actions: V[]) =>
  screen(
    '.CatalogActivity',
    [
      toolbar('Catalog', actions),
      ...[1, 2, 3].map((i) =>
        item(
          [
            txt(`Product ${i}`, 'product_name'),
            txt(`$${i}9.00`, 'product_price', { h: 72 }),
            btn('Add to cart', 'add_to_cart'),
          ],
          'product_row',
        ),
      ),
    ],
    { pkg: LOGIN },
  );

const SETTINGS = 'com.android.settings';
type S = { text: string; id: string; key?: boolean; enabled?: boolean };
const settings = (rows: S[]) =>
  screen(
    '.Settings',
    [
      toolbar('Settings'),
      ...rows.map((r) =>
        row(
          [
            sw(r.text, r.id, {
              ...(r.key ? { key: 'target' } : {}),
              ...(r.enabled === false ? { enabled: false } : {}),
            }),
          ],
          { h: 192 },
        ),
      ),
    ],
    { pkg: SETTINGS },
  );
const SWITCHES: S[] = [
  { text: 'Wi-Fi', id: 'wifi_switch' },
  { text: 'Bluetooth', id: 'bt_switch' },
  { text: 'Airplane mode', id: 'airplane_switch' },
  { text: 'Dark theme', id: 'dark_theme' },
];
const withKey = (rows: S[], text: string): S[] => rows.map((r) => (r.text === text ? { ...r, key: true } : r));
const NOTE_LIST = ['Groceries', 'Meeting', 'Ideas', 'Trip'];

export const TUNE: DriftCase[] = [
  // notes, main screen
  {
    name: 'notes: New note button id renamed',
    category: 'renamed-id',
    split: 'tune',
    selector: 'id=new_note',
    before: main(),
    after: main({ newId: 'create_note' }),
  },
  {
    name: 'notes: New note reworded to Create note',
    category: 'reworded',
    split: 'tune',
    selector: 'text="New note"',
    before: main(),
    after: main({ newText: 'Create note' }),
  },
  {
    name: 'notes: New note renamed and reworded to Add note',
    category: 'reworded',
    split: 'tune',
    selector: 'role=button[name="New note"]',
    before: main(),
    after: main({ newText: 'Add note', newId: 'add_note' }),
  },
  {
    name: 'notes: New note translated (es)',
    category: 'translated',
    split: 'tune',
    selector: 'text="New note"',
    before: main(),
    after: main({ newText: 'Nueva nota' }),
  },
  {
    name: 'notes: New note removed',
    category: 'removed',
    split: 'tune',
    selector: 'text="New note"',
    before: main(),
    after: main({ bottom: [] }),
  },
  {
    name: 'notes: the overflow menu is open over the list',
    category: 'dialog',
    split: 'tune',
    selector: 'id=new_note',
    before: main(),
    after: screen('.MainActivity', [], {
      pkg: NOTES,
      dialog: [
        txt('Load sample notes', 'title', { clickable: true, h: 132 }),
        txt('Delete all notes', 'title', { clickable: true, h: 132 }),
      ],
    }),
  },
  {
    name: 'notes: New note moved into the toolbar as an icon',
    category: 'moved',
    split: 'tune',
    selector: 'text="New note"',
    before: main(),
    after: main({
      actions: [
        icon('New note', 'new_note', { key: 'target' }),
        icon('Search notes', 'search'),
        icon('More options', 'overflow'),
      ],
      bottom: [],
    }),
  },
  // notes, edit screen
  {
    name: 'notes: title field id renamed',
    category: 'renamed-id',
    split: 'tune',
    selector: 'id=title',
    before: edit({ key: 'title' }),
    after: edit({ key: 'title', titleId: 'note_title' }),
  },
  {
    name: 'notes: both fields renamed to field_1/field_2, hints kept',
    category: 'look-alike',
    split: 'tune',
    selector: 'id=title',
    before: edit({ key: 'title' }),
    after: edit({ key: 'title', titleId: 'field_1', bodyId: 'field_2' }),
  },
  {
    name: 'notes: both fields renamed and their hints dropped',
    category: 'look-alike',
    split: 'tune',
    selector: 'id=title',
    before: edit({ key: 'title' }),
    after: edit({ titleId: 'field_1', bodyId: 'field_2', titleHint: null, bodyHint: null }),
  },
  {
    name: 'notes: Save reworded to Save note',
    category: 'reworded',
    split: 'tune',
    selector: 'role=button[name="Save"]',
    before: edit({ key: 'save' }),
    after: edit({ save: btn('Save note', 'save', { key: 'target' }) }),
  },
  {
    name: 'notes: Save translated (es)',
    category: 'translated',
    split: 'tune',
    selector: 'role=button[name="Save"]',
    before: edit({ key: 'save' }),
    after: edit({ save: btn('Guardar', 'save', { key: 'target' }) }),
  },
  {
    name: 'notes: a second Save (toolbar) makes the locator ambiguous',
    category: 'ambiguous',
    split: 'tune',
    selector: 'role=button[name="Save"]',
    before: edit({ key: 'save' }),
    after: edit({ key: 'save', actions: [icon('Save', 'save_toolbar'), icon('Delete note', 'delete')] }),
  },
  {
    name: 'notes: body field renamed, hint reworded',
    category: 'reworded',
    split: 'tune',
    selector: 'id=body',
    before: edit({ key: 'body' }),
    after: edit({ key: 'body', bodyId: 'content', bodyHint: 'Write your note' }),
  },
  {
    name: 'notes: Save moved into the toolbar as an icon',
    category: 'moved',
    split: 'tune',
    selector: 'text="Save"',
    before: edit({ key: 'save' }),
    after: edit({
      actions: [icon('Save', 'save', { key: 'target' }), icon('Delete note', 'delete')],
      save: txt('Edited just now', 'status'),
    }),
  },
  {
    name: 'notes: a Discard changes? dialog hides the Save button',
    category: 'dialog',
    split: 'tune',
    selector: 'role=button[name="Save"]',
    before: edit({ key: 'save' }),
    after: screen('.EditNoteActivity', [], {
      pkg: NOTES,
      dialog: [txt('Discard changes?', 'alertTitle'), row([btn('Keep editing', 'button2'), btn('Discard', 'button1')])],
    }),
  },
  {
    name: 'notes: a Save changes? dialog with its own Save hides the Save button',
    category: 'dialog',
    split: 'tune',
    selector: 'id=save',
    before: edit({ key: 'save' }),
    after: screen('.EditNoteActivity', [], {
      pkg: NOTES,
      dialog: [txt('Save changes?', 'alertTitle'), row([btn('Cancel', 'button2'), btn('Save', 'button1')])],
    }),
  },
  {
    name: 'notes: Delete note icon moved to a bottom bar as a text button',
    category: 'moved',
    split: 'tune',
    selector: 'desc=Delete note',
    before: screen(
      '.EditNoteActivity',
      [
        toolbar('Edit note', [icon('Delete note', 'delete', { key: 'target' })]),
        field('Title', 'title'),
        field('Note', 'body', { h: 480 }),
        btn('Save', 'save'),
      ],
      { pkg: NOTES },
    ),
    after: screen(
      '.EditNoteActivity',
      [
        toolbar('Edit note'),
        field('Title', 'title'),
        field('Note', 'body', { h: 480 }),
        row([btn('Delete', 'delete_button', { key: 'target' }), btn('Save', 'save')]),
      ],
      { pkg: NOTES },
    ),
  },
  // notes, list
  {
    name: 'notes: rows reversed and their title id renamed',
    category: 'reordered',
    split: 'tune',
    selector: [
      { kind: 'id', id: 'note_title' },
      { kind: 'filter', hasText: { text: 'Meeting', exact: false } },
    ],
    before: markText(main({ notes: NOTE_LIST, newKey: false }), 'Meeting'),
    after: markText(main({ notes: [...NOTE_LIST].reverse(), titleId: 'title_text', newKey: false }), 'Meeting'),
  },
  {
    name: 'notes: rows reordered, Groceries reworded to Grocery list',
    category: 'reordered',
    split: 'tune',
    selector: 'text="Groceries"',
    before: markText(main({ notes: NOTE_LIST, newKey: false }), 'Groceries'),
    after: markText(main({ notes: ['Trip', 'Grocery list', 'Ideas', 'Meeting'], newKey: false }), 'Grocery list'),
  },
  {
    name: 'notes: Meeting deleted, other rows reordered',
    category: 'removed',
    split: 'tune',
    selector: 'text="Meeting"',
    before: markText(main({ notes: NOTE_LIST, newKey: false }), 'Meeting'),
    after: main({ notes: ['Trip', 'Ideas', 'Groceries'], newKey: false }),
  },
  // login
  {
    name: 'login: Sign in id renamed',
    category: 'renamed-id',
    split: 'tune',
    selector: 'id=sign_in',
    before: login({ key: 'sign' }),
    after: login({ key: 'sign', signId: 'login_button' }),
  },
  {
    name: 'login: Sign in reworded to Log in',
    category: 'reworded',
    split: 'tune',
    selector: 'text="Sign in"',
    before: login({ key: 'sign' }),
    after: login({ key: 'sign', signText: 'Log in' }),
  },
  // Words apps use for the same control (the lexicon in framework/heal/similarity.ts).
  {
    name: 'login: Sign in reworded Log in and id renamed login_button',
    category: 'reworded',
    split: 'tune',
    selector: 'id=sign_in',
    before: login({ key: 'sign' }),
    after: login({ key: 'sign', signText: 'Log in', signId: 'login_button' }),
  },
  {
    name: 'login: Create account reworded Sign up, id renamed',
    category: 'reworded',
    split: 'tune',
    selector: 'text="Create account"',
    before: login({ key: 'register' }),
    after: login({ register: btn('Sign up', 'sign_up', { key: 'target' }) }),
  },
  {
    name: 'notes: Delete note icon reworded Remove note, id renamed',
    category: 'reworded',
    split: 'tune',
    selector: 'desc="Delete note"',
    before: edit({ actions: [icon('Delete note', 'delete', { key: 'target' })] }),
    after: edit({ actions: [icon('Remove note', 'remove_note', { key: 'target' })] }),
  },
  {
    name: 'catalog: Settings icon removed, More options stays (not a synonym)',
    category: 'removed',
    split: 'tune',
    selector: 'desc="Settings"',
    before: catalog([icon('Settings', 'settings', { key: 'target' }), icon('More options', 'overflow')]),
    after: catalog([icon('More options', 'overflow')]),
  },
  {
    name: 'login: Sign in translated (de)',
    category: 'translated',
    split: 'tune',
    selector: 'text="Sign in"',
    before: login({ key: 'sign' }),
    after: login({ key: 'sign', signText: 'Anmelden' }),
  },
  {
    name: 'login: email field renamed username, hint Email or phone',
    category: 'look-alike',
    split: 'tune',
    selector: 'id=email',
    before: login({ key: 'email' }),
    after: login({ key: 'email', emailId: 'username', emailHint: 'Email or phone' }),
  },
  {
    name: 'login: Sign in split into two sign-in buttons',
    category: 'look-alike',
    split: 'tune',
    selector: 'role=button[name="Sign in"]',
    before: login({ key: 'sign' }),
    after: login({
      buttons: [btn('Sign in with Google', 'sign_in_google'), btn('Sign in with email', 'sign_in_email')],
    }),
  },
  {
    name: 'login: Forgot password? removed',
    category: 'removed',
    split: 'tune',
    selector: 'text="Forgot password?"',
    before: login({ key: 'forgot' }),
    after: login({ forgot: null }),
  },
  {
    name: 'login: Create account moved to the top, id renamed',
    category: 'moved',
    split: 'tune',
    selector: 'id=register',
    before: login({ key: 'register' }),
    after: login({
      top: [btn('Create account', 'sign_up', { key: 'target' })],
      register: txt('By signing in you accept the terms', 'legal'),
    }),
  },
  // shop catalog
  {
    name: 'shop: the cart icon moved into the overflow menu',
    category: 'moved',
    split: 'tune',
    selector: 'desc=Cart',
    before: catalog([icon('Daily game', 'game'), icon('Cart', 'cart', { key: 'target' })]),
    after: catalog([icon('Daily game', 'game'), icon('More options', 'overflow')]),
  },
  {
    name: 'shop: the cart icon got a count in its description and a new id',
    category: 'reworded',
    split: 'tune',
    selector: 'desc="Cart"',
    before: catalog([icon('Daily game', 'game'), icon('Cart', 'cart', { key: 'target' })]),
    after: catalog([icon('Daily game', 'game'), icon('Cart, 2 items', 'cart_button', { key: 'target' })]),
  },
  // settings
  {
    name: 'settings: Wi-Fi switch id renamed',
    category: 'renamed-id',
    split: 'tune',
    selector: 'id=wifi_switch',
    before: settings(withKey(SWITCHES, 'Wi-Fi')),
    after: settings(
      withKey(
        SWITCHES.map((s) => (s.text === 'Wi-Fi' ? { ...s, id: 'wlan_toggle' } : s)),
        'Wi-Fi',
      ),
    ),
  },
  {
    name: 'settings: Wi-Fi reworded to Wi-Fi & networks',
    category: 'reworded',
    split: 'tune',
    selector: 'role=switch[name="Wi-Fi"]',
    before: settings(withKey(SWITCHES, 'Wi-Fi')),
    after: settings(
      withKey(
        SWITCHES.map((s) => (s.text === 'Wi-Fi' ? { ...s, text: 'Wi-Fi & networks' } : s)),
        'Wi-Fi & networks',
      ),
    ),
  },
  {
    name: 'settings: Dark theme translated (de)',
    category: 'translated',
    split: 'tune',
    selector: 'role=switch[name="Dark theme"]',
    before: settings(withKey(SWITCHES, 'Dark theme')),
    after: settings(
      withKey(
        SWITCHES.map((s) => (s.text === 'Dark theme' ? { ...s, text: 'Dunkles Design' } : s)),
        'Dunkles Design',
      ),
    ),
  },
  {
    name: 'settings: Airplane mode removed',
    category: 'removed',
    split: 'tune',
    selector: 'role=switch[name="Airplane mode"]',
    before: settings(withKey(SWITCHES, 'Airplane mode')),
    after: settings(SWITCHES.filter((s) => s.text !== 'Airplane mode')),
  },
  {
    name: 'settings: Bluetooth switch renamed but disabled',
    category: 'disabled',
    split: 'tune',
    selector: 'id=bt_switch',
    before: settings(withKey(SWITCHES, 'Bluetooth')),
    after: settings(
      SWITCHES.map((s) => (s.text === 'Bluetooth' ? { ...s, id: 'bluetooth_toggle', enabled: false } : s)),
    ),
  },
  {
    name: 'settings: a checkbox row that looks like the switch row',
    category: 'look-alike',
    split: 'tune',
    selector: 'id=dark_theme',
    before: settings(withKey(SWITCHES, 'Dark theme')),
    after: screen(
      '.Settings',
      [
        toolbar('Settings'),
        ...SWITCHES.filter((s) => s.text !== 'Dark theme').map((s) => row([sw(s.text, s.id)], { h: 192 })),
        row([check('Dark theme', 'dark_mode', { key: 'target' })], { h: 192 }),
      ],
      { pkg: SETTINGS },
    ),
  },
];

/** Mark the node with this exact text as the case's target. */
function markText(s: ReturnType<typeof screen>, text: string): ReturnType<typeof screen> {
  const n = s.observation.nodes.find((x) => x.text === text);
  if (!n) throw new Error(`corpus: no node with text ${text}`);
  return { ...s, keys: { ...s.keys, target: n.id } };
}
