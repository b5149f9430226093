import { btn, check, field, icon, item, row, screen, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The held-out split: written after the weights and thresholds in framework/heal were frozen,
 * on screens the tuning split does not have (chat, checkout, profile, player, transfer), and
 * not used to change them. Their counts are the scorer's honest figures.
 */
const CHAT = 'com.nestwright.chat';
const conversation = (
  o: {
    sendDesc?: string;
    sendId?: string;
    inputId?: string;
    inputHint?: string;
    attach?: V | null;
    sendKey?: boolean;
    inputKey?: boolean;
    messages?: string[];
  } = {},
) =>
  screen(
    '.ConversationActivity',
    [
      toolbar('Ana', [icon('Call', 'call'), icon('More options', 'overflow')]),
      ...(o.messages ?? ['Hi!', 'Are we still on for lunch?', 'Yes, 12:30']).map((m, i) =>
        txt(m, 'message_text', { h: 120, ...(i % 2 ? {} : {}) }),
      ),
      row([
        ...(o.attach === null ? [] : [o.attach ?? icon('Attach file', 'attach')]),
        field(o.inputHint ?? 'Message', o.inputId ?? 'compose', o.inputKey ? { key: 'target' } : {}),
        icon(o.sendDesc ?? 'Send', o.sendId ?? 'send', o.sendKey ? { key: 'target' } : {}),
      ]),
    ],
    { pkg: CHAT },
  );

const SHOP = 'com.nestwright.shop';
const address = (
  o: {
    ids?: Partial<Record<'street' | 'city' | 'zip', string>>;
    hints?: Partial<Record<'street' | 'city' | 'zip', string | null>>;
    order?: Array<'street' | 'city' | 'zip'>;
    key?: 'street' | 'city' | 'zip';
    pay?: V;
    extra?: V[];
  } = {},
) =>
  screen(
    '.CheckoutActivity',
    [
      toolbar('Checkout'),
      txt('Shipping address', 'section_title'),
      ...(o.order ?? ['street', 'city', 'zip']).map((f) => {
        const hint =
          o.hints?.[f] === null
            ? undefined
            : (o.hints?.[f] ?? { street: 'Street and number', city: 'City', zip: 'Postal code' }[f]);
        return field(hint, o.ids?.[f] ?? f, o.key === f ? { key: 'target' } : {});
      }),
      check('Save this address', 'save_address'),
      ...(o.extra ?? []),
      o.pay ?? btn('Pay $42.00', 'pay'),
    ],
    { pkg: SHOP },
  );

const PROFILE = 'com.example.profile';
const profile = (
  first: [string, string | undefined],
  last: [string, string | undefined],
  key: 'first' | 'last' | null,
  more: V[] = [],
) =>
  screen(
    '.ProfileActivity',
    [
      toolbar('Edit profile'),
      row([
        field(first[1], first[0], key === 'first' ? { key: 'target' } : {}),
        field(last[1], last[0], key === 'last' ? { key: 'target' } : {}),
      ]),
      field('Phone', 'phone'),
      ...more,
      btn('Update profile', 'update'),
    ],
    { pkg: PROFILE },
  );

const PLAYER = 'com.example.player';
const player = (controls: V[]) =>
  screen(
    '.PlayerActivity',
    [
      toolbar('Now playing'),
      txt('Blue in Green', 'track_title'),
      txt('Miles Davis', 'artist'),
      row(controls, { h: 216 }),
    ],
    { pkg: PLAYER },
  );
const CONTROLS = (o: { playDesc?: string; playId?: string; key?: 'play' | 'next' | 'prev' } = {}): V[] => [
  icon('Previous track', 'prev', { w: 216, h: 216, ...(o.key === 'prev' ? { key: 'target' } : {}) }),
  icon(o.playDesc ?? 'Play', o.playId ?? 'play_pause', {
    w: 216,
    h: 216,
    ...(o.key === 'play' ? { key: 'target' } : {}),
  }),
  icon('Next track', 'next', { w: 216, h: 216, ...(o.key === 'next' ? { key: 'target' } : {}) }),
];

const BANK = 'com.example.bank';
const transfer = (o: { amountId?: string; confirm?: V; accounts?: string[]; pickKey?: string } = {}) =>
  screen(
    '.TransferActivity',
    [
      toolbar('Transfer'),
      ...(o.accounts ?? ['Checking ••1234', 'Savings ••9876']).map((a) =>
        item([txt(a, 'account_name', a === o.pickKey ? { key: 'target' } : {})], 'account_row'),
      ),
      field('Amount', o.amountId ?? 'amount'),
      o.confirm ?? btn('Send money', 'confirm'),
    ],
    { pkg: BANK },
  );

export const HOLDOUT: DriftCase[] = [
  {
    name: 'chat: send icon id renamed',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=send',
    before: conversation({ sendKey: true }),
    after: conversation({ sendKey: true, sendId: 'send_button' }),
  },
  {
    name: 'chat: send reworded to Send message',
    category: 'reworded',
    split: 'holdout',
    selector: 'desc="Send"',
    before: conversation({ sendKey: true }),
    after: conversation({ sendKey: true, sendDesc: 'Send message' }),
  },
  {
    name: 'chat: send translated (fr) and id renamed',
    category: 'translated',
    split: 'holdout',
    selector: 'id=send',
    before: conversation({ sendKey: true }),
    after: conversation({ sendKey: true, sendDesc: 'Envoyer', sendId: 'btn_send' }),
  },
  {
    name: 'chat: compose field renamed, attach button removed (moves it left)',
    category: 'moved',
    split: 'holdout',
    selector: 'id=compose',
    before: conversation({ inputKey: true }),
    after: conversation({ inputKey: true, inputId: 'message_input', attach: null }),
  },
  {
    name: 'chat: send icon removed (voice only)',
    category: 'removed',
    split: 'holdout',
    selector: 'desc=Send',
    before: conversation({ sendKey: true }),
    after: screen(
      '.ConversationActivity',
      [
        toolbar('Ana', [icon('Call', 'call'), icon('More options', 'overflow')]),
        txt('Hi!', 'message_text'),
        row([icon('Attach file', 'attach'), field('Message', 'compose'), icon('Record voice message', 'voice')]),
      ],
      { pkg: CHAT },
    ),
  },
  {
    name: 'checkout: city field renamed locality',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=city',
    before: address({ key: 'city' }),
    after: address({ key: 'city', ids: { city: 'locality' }, hints: { city: 'Town or city' } }),
  },
  {
    name: 'checkout: fields reordered (postal code first), ids kept, hints reworded',
    category: 'reordered',
    split: 'holdout',
    selector: 'id=zip',
    before: address({ key: 'zip' }),
    after: address({
      key: 'zip',
      ids: { zip: 'postcode' },
      order: ['zip', 'street', 'city'],
      hints: { zip: 'Postcode' },
    }),
  },
  {
    name: 'checkout: all field ids generic, hints gone',
    category: 'look-alike',
    split: 'holdout',
    selector: 'id=street',
    before: address({ key: 'street' }),
    after: address({
      ids: { street: 'input1', city: 'input2', zip: 'input3' },
      hints: { street: null, city: null, zip: null },
    }),
  },
  {
    name: 'checkout: Pay reworded with the new total',
    category: 'reworded',
    split: 'holdout',
    selector: 'text="Pay $42.00"',
    before: address({ pay: btn('Pay $42.00', 'pay', { key: 'target' }) }),
    after: address({ pay: btn('Pay $45.50', 'pay', { key: 'target' }) }),
  },
  {
    name: 'checkout: a Place order and a Pay later button replace Pay',
    category: 'look-alike',
    split: 'holdout',
    selector: 'role=button[name="Pay $42.00"]',
    before: address({ pay: btn('Pay $42.00', 'pay', { key: 'target' }) }),
    after: address({ pay: row([btn('Pay later', 'pay_later'), btn('Pay now', 'pay_now')]) }),
  },
  {
    name: 'profile: first name renamed given_name, hint reworded',
    category: 'look-alike',
    split: 'holdout',
    selector: 'id=first_name',
    before: profile(['first_name', 'First name'], ['last_name', 'Last name'], 'first'),
    after: profile(['given_name', 'Given name'], ['family_name', 'Family name'], 'first'),
  },
  {
    name: 'profile: last name id renamed, hints kept',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=last_name',
    before: profile(['first_name', 'First name'], ['last_name', 'Last name'], 'last'),
    after: profile(['first', 'First name'], ['surname', 'Last name'], 'last'),
  },
  {
    name: 'profile: translated hints (es), ids kept generic-renamed',
    category: 'translated',
    split: 'holdout',
    selector: 'id=first_name',
    before: profile(['first_name', 'First name'], ['last_name', 'Last name'], 'first'),
    after: profile(['name_first', 'Nombre'], ['name_last', 'Apellidos'], 'first'),
  },
  {
    name: 'player: Play icon became Pause after autoplay, id kept',
    category: 'reworded',
    split: 'holdout',
    selector: 'desc="Play"',
    before: player(CONTROLS({ key: 'play' })),
    after: player(CONTROLS({ key: 'play', playDesc: 'Pause' })),
  },
  {
    name: 'player: play id renamed and reworded Play/Pause',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=play_pause',
    before: player(CONTROLS({ key: 'play' })),
    after: player(CONTROLS({ key: 'play', playId: 'toggle_playback', playDesc: 'Play or pause' })),
  },
  {
    name: 'player: controls replaced by a Upgrade to play dialog',
    category: 'dialog',
    split: 'holdout',
    selector: 'id=next',
    before: player(CONTROLS({ key: 'next' })),
    after: screen('.PlayerActivity', [], {
      pkg: PLAYER,
      dialog: [
        txt('Skip limit reached', 'alertTitle'),
        txt('Upgrade to skip more tracks.', 'message'),
        row([btn('Not now', 'button2'), btn('Upgrade', 'button1')]),
      ],
    }),
  },
  {
    name: 'bank: Send money reworded to Transfer and id renamed',
    category: 'reworded',
    split: 'holdout',
    selector: 'role=button[name="Send money"]',
    before: transfer({ confirm: btn('Send money', 'confirm', { key: 'target' }) }),
    after: transfer({ confirm: btn('Transfer now', 'submit_transfer', { key: 'target' }) }),
  },
  {
    name: 'bank: accounts reordered, Savings renamed Savings account',
    category: 'reordered',
    split: 'holdout',
    selector: 'text="Savings ••9876"',
    before: transfer({ pickKey: 'Savings ••9876' }),
    after: transfer({ accounts: ['Savings account ••9876', 'Checking ••1234'], pickKey: 'Savings account ••9876' }),
  },
  {
    name: 'bank: a confirm dialog covers Send money',
    category: 'dialog',
    split: 'holdout',
    selector: 'id=confirm',
    before: transfer({ confirm: btn('Send money', 'confirm', { key: 'target' }) }),
    after: screen('.TransferActivity', [], {
      pkg: BANK,
      dialog: [txt('Send $100 to Savings?', 'alertTitle'), row([btn('Cancel', 'button2'), btn('Send', 'button1')])],
    }),
  },
];
