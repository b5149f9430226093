import { btn, check, field, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The second held-out split (`holdout2`): written and committed before the scorer's word lexicon
 * (framework/heal/similarity.ts) was added, on screens neither other split has (mail, calendar,
 * files, a wallet), and not used to change the scorer after. The first held-out split was looked
 * at when the lexicon was written (its two declines are synonyms), so it no longer counts as
 * unseen; this one does.
 */
const MAIL = 'com.example.mail';
const compose = (
  o: {
    toHint?: string;
    toId?: string;
    subjectHint?: string;
    subjectId?: string;
    sendDesc?: string;
    sendId?: string;
    sendText?: string;
    key?: 'to' | 'subject' | 'send';
    actions?: V[];
  } = {},
) =>
  screen(
    '.ComposeActivity',
    [
      toolbar(
        'Compose',
        o.actions ?? [
          icon('Attach file', 'attach'),
          o.sendText
            ? btn(
                o.sendText,
                o.sendId ?? 'send',
                o.key === 'send' ? { key: 'target', w: 240, h: 168 } : { w: 240, h: 168 },
              )
            : icon(o.sendDesc ?? 'Send', o.sendId ?? 'send', o.key === 'send' ? { key: 'target' } : {}),
        ],
      ),
      field(o.toHint ?? 'To', o.toId ?? 'to', o.key === 'to' ? { key: 'target' } : {}),
      field(o.subjectHint ?? 'Subject', o.subjectId ?? 'subject', o.key === 'subject' ? { key: 'target' } : {}),
      field('Compose email', 'body', { h: 600 }),
    ],
    { pkg: MAIL },
  );

const CAL = 'com.example.calendar';
const event = (o: { titleHint?: string; titleId?: string; allDay?: V; save?: V; key?: 'title'; extra?: V[] } = {}) =>
  screen(
    '.EventActivity',
    [
      row([
        icon('Close', 'close'),
        txt('New event', 'toolbar_title', { h: 168 }),
        o.save ?? btn('Save', 'save', { w: 240 }),
      ]),
      field(o.titleHint ?? 'Add title', o.titleId ?? 'title', o.key === 'title' ? { key: 'target' } : {}),
      o.allDay ?? sw('All-day', 'all_day'),
      txt('Mon, Dec 1, 2026', 'start_date', { clickable: true }),
      txt('10:00 AM', 'start_time', { clickable: true }),
      ...(o.extra ?? []),
    ],
    { pkg: CAL },
  );

const FILES = 'com.example.files';
const files = (names: string[], o: { rowId?: string; key?: string; actions?: V[] } = {}) =>
  screen(
    '.BrowserActivity',
    [
      toolbar('Downloads', o.actions ?? [icon('Search', 'search'), icon('More options', 'overflow')]),
      ...names.map((n) =>
        item(
          [txt(n, 'file_name', n === o.key ? { key: 'target' } : {}), txt('1.2 MB', 'file_size', { h: 72 })],
          o.rowId ?? 'file_row',
        ),
      ),
    ],
    { pkg: FILES },
  );

const WALLET = 'com.example.wallet';
const wallet = (
  o: {
    payText?: string;
    payId?: string;
    requestText?: string;
    requestId?: string;
    key?: 'pay' | 'request';
    top?: V[];
  } = {},
) =>
  screen(
    '.HomeActivity',
    [
      toolbar('Wallet', [icon('Settings', 'settings')]),
      ...(o.top ?? []),
      txt('$1,250.00', 'balance', { h: 200 }),
      row([
        btn(o.payText ?? 'Pay', o.payId ?? 'pay', o.key === 'pay' ? { key: 'target' } : {}),
        btn(o.requestText ?? 'Request', o.requestId ?? 'request', o.key === 'request' ? { key: 'target' } : {}),
      ]),
      txt('Recent activity', 'section_title'),
    ],
    { pkg: WALLET },
  );

export const HOLDOUT2: DriftCase[] = [
  {
    name: 'mail: To field id renamed recipients',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=to',
    before: compose({ key: 'to' }),
    after: compose({ key: 'to', toId: 'recipients' }),
  },
  {
    name: 'mail: Send icon became a Send text button',
    category: 'moved',
    split: 'holdout',
    selector: 'desc="Send"',
    before: compose({ key: 'send' }),
    after: compose({ key: 'send', sendText: 'Send' }),
  },
  {
    name: 'mail: Send icon id renamed action_send, desc kept',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=send',
    before: compose({ key: 'send' }),
    after: compose({ key: 'send', sendId: 'action_send' }),
  },
  {
    name: 'mail: subject hint translated (de), id renamed',
    category: 'translated',
    split: 'holdout',
    selector: 'id=subject',
    before: compose({ key: 'subject' }),
    after: compose({ key: 'subject', subjectId: 'subject_field', subjectHint: 'Betreff' }),
  },
  {
    name: 'mail: Send removed from the toolbar (moved to a menu)',
    category: 'removed',
    split: 'holdout',
    selector: 'desc="Send"',
    before: compose({ key: 'send' }),
    after: compose({ actions: [icon('Attach file', 'attach'), icon('More options', 'overflow')] }),
  },
  {
    name: 'mail: To and Cc fields, both generic ids, To hint kept',
    category: 'look-alike',
    split: 'holdout',
    selector: 'id=to',
    before: compose({ key: 'to' }),
    after: screen(
      '.ComposeActivity',
      [
        toolbar('Compose', [icon('Attach file', 'attach'), icon('Send', 'send')]),
        field('To', 'input_1', { key: 'target' }),
        field('Cc', 'input_2'),
        field('Subject', 'subject'),
        field('Compose email', 'body', { h: 600 }),
      ],
      { pkg: MAIL },
    ),
  },
  {
    name: 'calendar: title hint reworded Event name, id kept renamed event_title',
    category: 'reworded',
    split: 'holdout',
    selector: 'id=title',
    before: event({ key: 'title' }),
    after: event({ key: 'title', titleId: 'event_title', titleHint: 'Event name' }),
  },
  {
    name: 'calendar: Save reworded Done',
    category: 'reworded',
    split: 'holdout',
    selector: 'text="Save"',
    before: event({ save: btn('Save', 'save', { w: 240, key: 'target' }) }),
    after: event({ save: btn('Done', 'done', { w: 240, key: 'target' }) }),
  },
  {
    name: 'calendar: Save id renamed save_event, text kept',
    category: 'renamed-id',
    split: 'holdout',
    selector: 'id=save',
    before: event({ save: btn('Save', 'save', { w: 240, key: 'target' }) }),
    after: event({ save: btn('Save', 'save_event', { w: 240, key: 'target' }) }),
  },
  {
    name: 'calendar: All-day switch became a checkbox',
    category: 'moved',
    split: 'holdout',
    selector: 'role=switch[name="All-day"]',
    before: event({ allDay: sw('All-day', 'all_day', { key: 'target' }) }),
    after: event({ allDay: check('All-day', 'all_day', { key: 'target' }) }),
  },
  {
    name: 'calendar: All-day switch removed',
    category: 'removed',
    split: 'holdout',
    selector: 'role=switch[name="All-day"]',
    before: event({ allDay: sw('All-day', 'all_day', { key: 'target' }) }),
    after: event({ allDay: txt('Time zone: UTC', 'tz') }),
  },
  {
    name: 'calendar: a discard dialog covers the event',
    category: 'dialog',
    split: 'holdout',
    selector: 'id=save',
    before: event({ save: btn('Save', 'save', { w: 240, key: 'target' }) }),
    after: screen('.EventActivity', [], {
      pkg: CAL,
      dialog: [
        txt('Discard this event?', 'alertTitle'),
        row([btn('Keep editing', 'button2'), btn('Discard', 'button1')]),
      ],
    }),
  },
  {
    name: 'files: rows reordered, file row id renamed',
    category: 'reordered',
    split: 'holdout',
    selector: 'text="report.pdf"',
    before: files(['photo.jpg', 'report.pdf', 'notes.txt'], { key: 'report.pdf' }),
    after: files(['notes.txt', 'photo.jpg', 'report-final.pdf'], { key: 'report-final.pdf', rowId: 'entry' }),
  },
  {
    name: 'files: the file was deleted, others remain',
    category: 'removed',
    split: 'holdout',
    selector: 'text="report.pdf"',
    before: files(['photo.jpg', 'report.pdf', 'notes.txt'], { key: 'report.pdf' }),
    after: files(['photo.jpg', 'notes.txt']),
  },
  {
    name: 'files: Search icon desc reworded Search files, id kept',
    category: 'reworded',
    split: 'holdout',
    selector: 'desc="Search"',
    before: files(['a.txt'], {
      actions: [icon('Search', 'search', { key: 'target' }), icon('More options', 'overflow')],
    }),
    after: files(['a.txt'], {
      actions: [icon('Search files', 'search', { key: 'target' }), icon('More options', 'overflow')],
    }),
  },
  {
    name: 'files: Search and Sort icons, search id renamed, desc translated (fr)',
    category: 'translated',
    split: 'holdout',
    selector: 'id=search',
    before: files(['a.txt'], {
      actions: [icon('Search', 'search', { key: 'target' }), icon('Sort', 'sort'), icon('More options', 'overflow')],
    }),
    after: files(['a.txt'], {
      actions: [
        icon('Rechercher', 'action_search', { key: 'target' }),
        icon('Trier', 'action_sort'),
        icon('Plus d’options', 'overflow'),
      ],
    }),
  },
  {
    name: 'wallet: Pay reworded Send, id renamed',
    category: 'reworded',
    split: 'holdout',
    selector: 'text="Pay"',
    before: wallet({ key: 'pay' }),
    after: wallet({ key: 'pay', payText: 'Send', payId: 'send' }),
  },
  {
    name: 'wallet: Pay and Request swapped places',
    category: 'reordered',
    split: 'holdout',
    selector: 'id=request',
    before: wallet({ key: 'request' }),
    after: screen(
      '.HomeActivity',
      [
        toolbar('Wallet', [icon('Settings', 'settings')]),
        txt('$1,250.00', 'balance', { h: 200 }),
        row([btn('Request', 'request_money', { key: 'target' }), btn('Pay', 'pay')]),
        txt('Recent activity', 'section_title'),
      ],
      { pkg: WALLET },
    ),
  },
  {
    name: 'wallet: Request renamed, a banner pushes it down',
    category: 'moved',
    split: 'holdout',
    selector: 'id=request',
    before: wallet({ key: 'request' }),
    after: wallet({
      key: 'request',
      requestId: 'request_money',
      top: [txt('Verify your identity to raise limits', 'banner', { h: 240 })],
    }),
  },
  {
    name: 'wallet: Pay and Request both became Transfer buttons',
    category: 'ambiguous',
    split: 'holdout',
    selector: 'id=pay',
    before: wallet({ key: 'pay' }),
    after: wallet({ payText: 'Transfer', payId: 'transfer_out', requestText: 'Transfer', requestId: 'transfer_in' }),
  },
];
