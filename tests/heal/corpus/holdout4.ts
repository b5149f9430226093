import { btn, check, col, field, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The fourth held-out split (`holdout4`): 30 cases on apps no other split has (food delivery,
 * card management, a news reader, street parking, a smart-home controller, language lessons, a
 * pharmacy, job search, event tickets, video streaming, dating discovery settings, maps). Written
 * blind to the scorer: without reading framework/heal, the corpus evaluation or the healing tests,
 * and without running the healer on these cases; only `check.ts` (the locator names the target
 * alone before, and is broken after) was run. Never used to tune the scorer. Each `after` keys as
 * `target` what a careful tester would say the locator meant, or nothing when the honest answer is
 * "no heal": the control is gone (even when another of the same kind now sits in its place or
 * shares words with its label), a dialog covers the screen, the only candidate is disabled (a
 * step could not act on it), or several candidates fit with no way to tell.
 */
const T: Partial<V> = { key: 'target' };
const on = (yes: boolean): Partial<V> => (yes ? T : {});

const FOOD = 'com.example.food';
const dish = (name: string, price: string, o: { rowId?: string; key?: boolean } = {}) =>
  item(
    [
      col([txt(name, 'dish_name'), txt(price, 'dish_price', { h: 72 })]),
      btn('Add', 'add_dish', { w: 240, h: 168, ...on(!!o.key) }),
    ],
    o.rowId ?? 'menu_item',
    { row: true, h: 168 },
  );
const menu = (dishes: [string, string][], o: { rowId?: string; key?: string; cart?: V } = {}) =>
  screen(
    '.RestaurantActivity',
    [
      toolbar('Trattoria Nonna', [icon('Search menu', 'search'), icon('Favorite', 'favorite')]),
      txt('Pizza · 25–35 min · €1.99 delivery', 'restaurant_meta'),
      ...dishes.map(([n, p]) => dish(n, p, { rowId: o.rowId, key: n === o.key })),
      o.cart ?? btn('View cart · 2 items', 'view_cart'),
    ],
    { pkg: FOOD },
  );
const DISH_EN = { extra: 'Extra mozzarella +€1.50', note: 'Add a note for the kitchen', add: 'Add to cart' };
const DISH_IT = {
  extra: 'Mozzarella extra +€1,50',
  note: 'Aggiungi una nota per la cucina',
  add: 'Aggiungi al carrello',
};
const dishDetail = (o: { l?: typeof DISH_EN; add?: V } = {}) => {
  const l = o.l ?? DISH_EN;
  return screen(
    '.DishActivity',
    [
      toolbar('Margherita', [icon('Close', 'close')]),
      { role: 'image', desc: 'Margherita', id: 'dish_photo', h: 720 },
      txt('Tomato, mozzarella, basil · €9.50', 'dish_description'),
      check(l.extra, 'extra_option'),
      field(l.note, 'kitchen_note', { h: 240 }),
      row([icon('Decrease quantity', 'qty_minus'), txt('1', 'qty', { h: 168 }), icon('Increase quantity', 'qty_plus')]),
      o.add ?? btn(l.add, 'add_to_cart'),
    ],
    { pkg: FOOD },
  );
};
const cart = (o: { extras?: V[]; order?: V[] } = {}) =>
  screen(
    '.CartActivity',
    [
      toolbar('Your order', [icon('Close', 'close')]),
      txt('Margherita ×1 · €9.50', 'cart_line'),
      txt('Tiramisu ×1 · €5.00', 'cart_line'),
      ...(o.extras ?? [btn('Apply promo code', 'apply_promo'), btn('Add a tip', 'add_tip')]),
      txt('Total €16.49', 'total'),
      ...(o.order ?? [btn('Place order', 'place_order')]),
    ],
    { pkg: FOOD },
  );

const CARDS = 'com.example.cards';
const cardSettings = (o: { switches?: V[]; actions?: V[]; below?: V[] } = {}) =>
  screen(
    '.CardSettingsActivity',
    [
      toolbar('Card settings', [icon('Help', 'help')]),
      txt('Visa Debit ·· 4821', 'card_name', { h: 120 }),
      txt('Expires 09/28', 'card_expiry'),
      ...(o.switches ?? [
        sw('Contactless payments', 'contactless', { checked: true }),
        sw('Online payments', 'online_payments', { checked: true }),
        sw('Freeze card', 'freeze'),
      ]),
      ...(o.actions ?? [
        btn('View PIN', 'view_pin'),
        btn('Replace card', 'replace_card'),
        btn('Report lost or stolen', 'report_lost'),
      ]),
      ...(o.below ?? []),
    ],
    { pkg: CARDS },
  );

const NEWS = 'com.example.news';
const article = (o: { actions?: V[]; footer?: V[]; follow?: V[] } = {}) =>
  screen(
    '.ArticleActivity',
    [
      toolbar('Climate', o.actions ?? [icon('Text size', 'text_size'), icon('More options', 'overflow')]),
      txt('Alpine glaciers lost 4% of their volume this year', 'headline', { h: 240 }),
      txt('By Jane Doe · 6 min read', 'byline'),
      { role: 'image', desc: 'Glacier at sunrise', id: 'lead_photo', h: 600 },
      txt('Scientists measuring 500 glaciers report the second-worst year on record…', 'body', { h: 600 }),
      row(o.footer ?? [btn('Save for later', 'save_later'), btn('Share', 'share')]),
      row(o.follow ?? [btn('Follow Climate', 'follow_topic'), btn('Follow Jane Doe', 'follow_author')]),
    ],
    { pkg: NEWS },
  );

const PARKING = 'com.example.parking';
const PARK_EN = {
  title: 'Park',
  zone: 'Zone number',
  plate: 'Licence plate',
  duration: 'Duration',
  price: '€3.20 for 2 h',
  start: 'Start parking',
  remind: 'Remind me before it ends',
};
const PARK_DE = {
  title: 'Parken',
  zone: 'Zonennummer',
  plate: 'Kennzeichen',
  duration: 'Parkdauer',
  price: '3,20 € für 2 Std.',
  start: 'Parken starten',
  remind: 'Vor Ablauf erinnern',
};
const parking = (o: { l?: typeof PARK_EN; fields?: V[]; start?: V } = {}) => {
  const l = o.l ?? PARK_EN;
  return screen(
    '.StartSessionActivity',
    [
      toolbar(l.title, [icon('Menu', 'menu')]),
      ...(o.fields ?? [field(l.zone, 'zone_code'), field(l.plate, 'plate')]),
      txt(l.duration, 'duration_label'),
      row([btn('1 h', 'duration_1h'), btn('2 h', 'duration_2h'), btn('4 h', 'duration_4h')]),
      txt(l.price, 'price'),
      sw(l.remind, 'reminder'),
      o.start ?? btn(l.start, 'start_parking'),
    ],
    { pkg: PARKING },
  );
};

const HOME = 'com.example.home';
const room = (o: { allOff?: V; thermostat?: V } = {}) =>
  screen(
    '.RoomActivity',
    [
      toolbar('Living room', [icon('Room settings', 'room_settings')]),
      sw('Ceiling light', 'light_ceiling', { checked: true }),
      sw('Floor lamp', 'light_floor', { checked: true }),
      o.allOff ?? btn('Turn off all lights', 'all_off'),
      txt('Thermostat', 'section_thermostat'),
      o.thermostat ??
        col([
          txt('21.5 °C', 'target_temp', { h: 200 }),
          row([icon('Decrease temperature', 'temp_down'), icon('Increase temperature', 'temp_up')]),
        ]),
      sw('Away mode', 'away_mode'),
    ],
    { pkg: HOME },
  );

const LINGO = 'com.example.lingo';
const LESSON_EN = {
  title: 'Lesson 4',
  prompt: 'Translate this sentence',
  answer: 'Type in English',
  skip: 'Skip',
  check: 'Check',
};
const LESSON_FR = {
  title: 'Leçon 4',
  prompt: 'Traduisez cette phrase',
  answer: 'Écrivez en anglais',
  skip: 'Passer',
  check: 'Vérifier',
};
const exercise = (o: { l?: typeof LESSON_EN; audio?: V[]; check?: V } = {}) => {
  const l = o.l ?? LESSON_EN;
  return screen(
    '.ExerciseActivity',
    [
      toolbar(l.title, [icon('Close', 'close')]),
      txt(l.prompt, 'prompt'),
      row(o.audio ?? [icon('Play audio', 'play_audio'), icon('Play slowly', 'play_slow')]),
      txt('Je voudrais un café, s’il vous plaît.', 'sentence', { h: 200 }),
      field(l.answer, 'answer', { h: 288 }),
      row([btn(l.skip, 'skip'), o.check ?? btn(l.check, 'check_answer')]),
    ],
    { pkg: LINGO },
  );
};

const PHARMACY = 'com.example.pharmacy';
const rx = (name: string, detail: string, action: V) =>
  item([col([txt(name, 'rx_name'), txt(detail, 'rx_detail', { h: 72 })]), action], 'rx_row', { row: true, h: 168 });
const rxList = (rows: V[]) =>
  screen(
    '.PrescriptionsActivity',
    [toolbar('Prescriptions', [icon('Search', 'search')]), ...rows, btn('Transfer a prescription', 'transfer_in')],
    { pkg: PHARMACY },
  );
const refill = (more: Partial<V> = {}) => btn('Refill', 'refill', { w: 280, h: 168, ...more });
const rxDetail = (actions?: V[]) =>
  screen(
    '.PrescriptionActivity',
    [
      toolbar('Lisinopril 10 mg', [icon('More options', 'overflow')]),
      txt('Take 1 tablet daily', 'rx_directions'),
      txt('2 refills left · Last filled Nov 3', 'rx_status'),
      txt('Prescribed by Dr. Amara Reyes', 'rx_prescriber'),
      ...(actions ?? [
        btn('Request refill', 'request_refill'),
        btn('Transfer to another pharmacy', 'transfer_out'),
        btn('Set reminder', 'set_reminder'),
      ]),
    ],
    { pkg: PHARMACY },
  );
const rxCheckout = (submit?: V) =>
  screen(
    '.CheckoutActivity',
    [
      toolbar('Checkout'),
      txt('2 items · Copay €7.40', 'order_summary'),
      txt('Pick up at Farmácia Central', 'pickup_store'),
      check('Text me when it is ready', 'notify_sms'),
      submit ?? btn('Submit order', 'submit_order'),
    ],
    { pkg: PHARMACY },
  );

const JOBS = 'com.example.jobs';
const job = (apply?: V) =>
  screen(
    '.JobActivity',
    [
      toolbar('Job', [icon('Share', 'share'), icon('Save job', 'save_job')]),
      txt('Android Engineer', 'job_title', { h: 120 }),
      txt('Lumen Labs · Lisbon · Hybrid', 'job_company'),
      txt('€55k–70k · Full-time', 'job_salary'),
      txt('Build the Lumen app used by 2 million people…', 'job_description', { h: 600 }),
      apply ?? btn('Apply now', 'apply'),
      btn('Not interested', 'dismiss'),
    ],
    { pkg: JOBS },
  );
const savedJobs = (jobs: [string, string][], o: { key?: string; desc?: string } = {}) =>
  screen(
    '.SavedJobsActivity',
    [
      toolbar('Saved jobs', [icon('Sort', 'sort')]),
      ...jobs.map(([title, company]) =>
        item(
          [
            col([txt(title, 'job_title'), txt(company, 'job_company', { h: 72 })]),
            icon(o.desc ?? 'Unsave', 'unsave', on(company === o.key)),
          ],
          'saved_job',
          { row: true, h: 168 },
        ),
      ),
    ],
    { pkg: JOBS },
  );

const TICKETS = 'com.example.tickets';
const event = (cta: V[]) =>
  screen(
    '.EventActivity',
    [
      toolbar('Event', [icon('Share', 'share')]),
      { role: 'image', desc: 'Event poster', id: 'poster', h: 720 },
      txt('Jazz at the Park', 'event_title', { h: 120 }),
      txt('Jardim da Estrela, Lisbon', 'event_venue'),
      txt('From €18', 'event_price'),
      ...cta,
    ],
    { pkg: TICKETS },
  );

const VIDEO = 'com.example.video';
const player = (top: V[]) =>
  screen(
    '.PlayerActivity',
    [
      row(top),
      { role: 'image', desc: 'Video', id: 'video_surface', h: 1200 },
      row([icon('Rewind 10 seconds', 'rewind'), icon('Pause', 'play_pause'), icon('Forward 10 seconds', 'forward')]),
      row([btn('Skip intro', 'skip_intro'), btn('Next episode', 'next_episode')]),
    ],
    { pkg: VIDEO },
  );
const playerTop = (subs: V) => [
  icon('Back', 'back'),
  txt('The Long Coast · S1:E3', 'video_title', { h: 168 }),
  subs,
  icon('Cast', 'cast'),
];
const title = (second: V) =>
  screen(
    '.TitleActivity',
    [
      toolbar('The Long Coast', [icon('Search', 'search')]),
      txt('2025 · Drama · 2 seasons', 'title_meta'),
      btn('Resume S1:E3', 'play'),
      second,
      row([icon('My list', 'my_list'), icon('Rate', 'rate'), icon('Download', 'download')]),
      txt('A marine biologist returns to the island she left twenty years ago.', 'synopsis', { h: 360 }),
    ],
    { pkg: VIDEO },
  );

const DATING = 'com.example.dating';
const discovery = (o: { top?: V[]; ages?: V[]; below?: V[] } = {}) =>
  screen(
    '.DiscoverySettingsActivity',
    [
      toolbar('Discovery settings'),
      ...(o.top ?? [sw('Show me on Discover', 'show_discover', { checked: true })]),
      txt('Age range', 'age_label'),
      row(o.ages ?? [field('Minimum age', 'age_min'), field('Maximum age', 'age_max')]),
      field('Maximum distance (km)', 'max_distance'),
      sw('Only show verified profiles', 'verified_only'),
      ...(o.below ?? []),
    ],
    { pkg: DATING },
  );

const MAPS = 'com.example.maps';
const place = (actions?: V[]) =>
  screen(
    '.PlaceActivity',
    [
      toolbar('Café Aurora', [icon('Search', 'search')]),
      txt('4.6 ★ · Café · 350 m', 'place_meta'),
      row(
        actions ?? [
          btn('Directions', 'directions'),
          btn('Start', 'start_nav'),
          btn('Save', 'save_place'),
          btn('Share', 'share_place'),
        ],
      ),
      txt('Open · Closes 19:00', 'hours'),
      { role: 'image', desc: 'Map', id: 'map', h: 900 },
    ],
    { pkg: MAPS },
  );
const routeOptions = (opts?: V[]) =>
  screen(
    '.RouteOptionsActivity',
    [
      toolbar('Route options'),
      ...(opts ?? [
        check('Avoid tolls', 'avoid_tolls'),
        check('Avoid highways', 'avoid_highways'),
        check('Avoid ferries', 'avoid_ferries'),
      ]),
      btn('Done', 'done'),
    ],
    { pkg: MAPS },
  );

const H = 'holdout' as const;
const PIZZAS: [string, string][] = [
  ['Margherita', '€9.50'],
  ['Diavola', '€11.00'],
  ['Quattro formaggi', '€12.00'],
  ['Tiramisu', '€5.00'],
];
const SAVED: [string, string][] = [
  ['Android Engineer', 'Lumen Labs'],
  ['Mobile Developer', 'Kestrel Bank'],
  ['Senior Android Engineer', 'Orbit Games'],
];

export const HOLDOUT4: DriftCase[] = [
  // renamed-id
  {
    name: 'food: View cart id renamed cart_bar, label kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=view_cart',
    before: menu(PIZZAS, { cart: btn('View cart · 2 items', 'view_cart', T) }),
    after: menu(PIZZAS, { cart: btn('View cart · 2 items', 'cart_bar', T) }),
  },
  {
    name: 'cards: Contactless payments switch id renamed toggle_contactless, label kept, Online payments switch below',
    category: 'renamed-id',
    split: H,
    selector: 'id=contactless',
    before: cardSettings({
      switches: [
        sw('Contactless payments', 'contactless', { checked: true, ...T }),
        sw('Online payments', 'online_payments', { checked: true }),
        sw('Freeze card', 'freeze'),
      ],
    }),
    after: cardSettings({
      switches: [
        sw('Contactless payments', 'toggle_contactless', { checked: true, ...T }),
        sw('Online payments', 'toggle_online'),
        sw('Freeze card', 'toggle_freeze'),
      ],
    }),
  },
  {
    name: 'parking: Licence plate field id renamed vehicle_plate, hint kept, Zone number field above',
    category: 'renamed-id',
    split: H,
    selector: 'id=plate',
    before: parking({ fields: [field('Zone number', 'zone_code'), field('Licence plate', 'plate', T)] }),
    after: parking({ fields: [field('Zone number', 'zone_code'), field('Licence plate', 'vehicle_plate', T)] }),
  },
  {
    name: 'video: Subtitles icon id renamed captions_button, desc kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=cc',
    before: player(playerTop(icon('Subtitles', 'cc', T))),
    after: player(playerTop(icon('Subtitles', 'captions_button', T))),
  },

  // reworded
  {
    name: 'news: Save for later reworded Save story, id kept',
    category: 'reworded',
    split: H,
    selector: 'text="Save for later"',
    before: article({ footer: [btn('Save for later', 'save_later', T), btn('Share', 'share')] }),
    after: article({ footer: [btn('Save story', 'save_later', T), btn('Share', 'share')] }),
  },
  {
    name: 'jobs: Apply now reworded Apply, id kept, Not interested below',
    category: 'reworded',
    split: H,
    selector: 'text="Apply now"',
    before: job(btn('Apply now', 'apply', T)),
    after: job(btn('Apply', 'apply', T)),
  },
  {
    name: 'pharmacy: Request refill reworded Order refill, id renamed order_refill (hard)',
    category: 'reworded',
    split: H,
    selector: 'text="Request refill"',
    before: rxDetail([
      btn('Request refill', 'request_refill', T),
      btn('Transfer to another pharmacy', 'transfer_out'),
      btn('Set reminder', 'set_reminder'),
    ]),
    after: rxDetail([
      btn('Order refill', 'order_refill', T),
      btn('Transfer to another pharmacy', 'transfer_out'),
      btn('Set reminder', 'set_reminder'),
    ]),
  },
  {
    name: 'home: Turn off all lights reworded All lights off, id renamed lights_all_off (hard)',
    category: 'reworded',
    split: H,
    selector: 'text="Turn off all lights"',
    before: room({ allOff: btn('Turn off all lights', 'all_off', T) }),
    after: room({ allOff: btn('All lights off', 'lights_all_off', T) }),
  },
  {
    name: 'tickets: Buy tickets reworded Get tickets, id renamed get_tickets (hard), Add to calendar beside it',
    category: 'reworded',
    split: H,
    selector: 'text="Buy tickets"',
    before: event([
      txt('Sat, Dec 13 · 19:30', 'event_when'),
      row([btn('Buy tickets', 'buy', T), btn('Add to calendar', 'add_to_calendar')]),
    ]),
    after: event([
      txt('Sat, Dec 13 · 19:30', 'event_when'),
      row([btn('Get tickets', 'get_tickets', T), btn('Add to calendar', 'add_to_calendar')]),
    ]),
  },

  // translated
  {
    name: 'lingo: interface switched to French, Check now Vérifier, id kept; Passer (Skip) beside it',
    category: 'translated',
    split: H,
    selector: 'text="Check"',
    before: exercise({ check: btn('Check', 'check_answer', T) }),
    after: exercise({ l: LESSON_FR, check: btn('Vérifier', 'check_answer', T) }),
  },
  {
    name: 'food: dish screen translated (it), Add to cart now Aggiungi al carrello and id renamed add_item; Aggiungi una nota is the note field',
    category: 'translated',
    split: H,
    selector: 'text="Add to cart"',
    before: dishDetail({ add: btn('Add to cart', 'add_to_cart', T) }),
    after: dishDetail({ l: DISH_IT, add: btn('Aggiungi al carrello', 'add_item', T) }),
  },
  {
    name: 'parking: screen translated (de), Start parking now Parken starten, id kept',
    category: 'translated',
    split: H,
    selector: 'text="Start parking"',
    before: parking({ start: btn('Start parking', 'start_parking', T) }),
    after: parking({ l: PARK_DE, start: btn('Parken starten', 'start_parking', T) }),
  },

  // moved
  {
    name: 'news: Share text button moved to a toolbar icon (desc Share, id action_share); Save for later left alone in the footer',
    category: 'moved',
    split: H,
    selector: 'text="Share"',
    before: article({ footer: [btn('Save for later', 'save_later'), btn('Share', 'share', T)] }),
    after: article({
      actions: [icon('Share', 'action_share', T), icon('Text size', 'text_size'), icon('More options', 'overflow')],
      footer: [btn('Save for later', 'save_later')],
    }),
  },
  {
    name: 'cards: Report lost or stolen moved into a new Security section at the bottom, id renamed security_report_lost; Set spending limit now in its old slot',
    category: 'moved',
    split: H,
    selector: 'id=report_lost',
    before: cardSettings({
      actions: [
        btn('View PIN', 'view_pin'),
        btn('Replace card', 'replace_card'),
        btn('Report lost or stolen', 'report_lost', T),
      ],
    }),
    after: cardSettings({
      actions: [
        btn('View PIN', 'view_pin'),
        btn('Replace card', 'replace_card'),
        btn('Set spending limit', 'spending_limit'),
      ],
      below: [
        txt('Security', 'section_security'),
        btn('Report lost or stolen', 'security_report_lost', T),
        sw('Block gambling payments', 'block_gambling'),
      ],
    }),
  },
  {
    name: 'dating: Show me on Discover switch moved from the top into a Visibility section below, id renamed visibility_discover; Show my distance switch beside it',
    category: 'moved',
    split: H,
    selector: 'id=show_discover',
    before: discovery({ top: [sw('Show me on Discover', 'show_discover', { checked: true, ...T })] }),
    after: discovery({
      top: [],
      below: [
        txt('Visibility', 'section_visibility'),
        sw('Show me on Discover', 'visibility_discover', { checked: true, ...T }),
        sw('Show my distance', 'show_distance'),
      ],
    }),
  },
  {
    name: 'maps: Avoid tolls checkbox became a switch, id kept',
    category: 'moved',
    split: H,
    selector: 'role=checkbox[name="Avoid tolls"]',
    before: routeOptions([
      check('Avoid tolls', 'avoid_tolls', T),
      check('Avoid highways', 'avoid_highways'),
      check('Avoid ferries', 'avoid_ferries'),
    ]),
    after: routeOptions([
      sw('Avoid tolls', 'avoid_tolls', T),
      sw('Avoid highways', 'avoid_highways'),
      sw('Avoid ferries', 'avoid_ferries'),
    ]),
  },

  // reordered
  {
    name: 'food: menu re-sorted Popular first, row id renamed dish_card; Quattro formaggi’s Add, not the one now in its old slot',
    category: 'reordered',
    split: H,
    selector: 'id=menu_item >> has-text="Quattro formaggi" >> text="Add"',
    before: menu(PIZZAS, { key: 'Quattro formaggi' }),
    after: menu(
      [
        ['Diavola', '€11.00'],
        ['Quattro formaggi', '€12.00'],
        ['Margherita', '€9.50'],
        ['Tiramisu', '€5.00'],
      ],
      { key: 'Quattro formaggi', rowId: 'dish_card' },
    ),
  },
  {
    name: 'jobs: saved jobs sorted by closing date, Unsave desc reworded Remove from saved; the Lumen Labs row’s icon',
    category: 'reordered',
    split: H,
    selector: 'id=saved_job >> has-text="Lumen Labs" >> desc="Unsave"',
    before: savedJobs(SAVED, { key: 'Lumen Labs' }),
    after: savedJobs(
      [
        ['Senior Android Engineer', 'Orbit Games'],
        ['Mobile Developer', 'Kestrel Bank'],
        ['Android Engineer', 'Lumen Labs'],
      ],
      { key: 'Lumen Labs', desc: 'Remove from saved' },
    ),
  },
  {
    name: 'pharmacy: list re-sorted, Lisinopril has no refills left (Request renewal from the doctor instead), Metformin’s Refill now in its old slot — no heal',
    category: 'reordered',
    split: H,
    selector: 'id=rx_row >> has-text="Lisinopril" >> text="Refill"',
    before: rxList([
      rx('Lisinopril 10 mg', '1 refill left', refill(T)),
      rx('Metformin 500 mg', '5 refills left', refill()),
      rx('Atorvastatin 20 mg', '3 refills left', refill()),
    ]),
    after: rxList([
      rx('Metformin 500 mg', '5 refills left', refill()),
      rx('Atorvastatin 20 mg', '3 refills left', refill()),
      rx('Lisinopril 10 mg', 'No refills left', btn('Request renewal', 'request_renewal', { w: 280, h: 168 })),
    ]),
  },

  // look-alike
  {
    name: 'home: thermostat now − 21.5 °C +, ids renamed thermostat_minus/plus, descs reworded; the raise button, not lower',
    category: 'look-alike',
    split: H,
    selector: 'id=temp_up',
    before: room({
      thermostat: col([
        txt('21.5 °C', 'target_temp', { h: 200 }),
        row([icon('Decrease temperature', 'temp_down'), icon('Increase temperature', 'temp_up', T)]),
      ]),
    }),
    after: room({
      thermostat: row([
        icon('Lower target temperature', 'thermostat_minus'),
        txt('21.5 °C', 'target_temp', { h: 168 }),
        icon('Raise target temperature', 'thermostat_plus', T),
      ]),
    }),
  },
  {
    name: 'dating: age fields re-ided range_from/range_to, hints From/To; To, not From nor Maximum distance',
    category: 'look-alike',
    split: H,
    selector: 'id=age_max',
    before: discovery({ ages: [field('Minimum age', 'age_min'), field('Maximum age', 'age_max', T)] }),
    after: discovery({ ages: [field('From', 'range_from'), field('To', 'range_to', T)] }),
  },
  {
    name: 'lingo: Play audio desc reworded Listen, id renamed speaker; Listen slowly beside it is not it',
    category: 'look-alike',
    split: H,
    selector: 'desc="Play audio"',
    before: exercise({ audio: [icon('Play audio', 'play_audio', T), icon('Play slowly', 'play_slow')] }),
    after: exercise({ audio: [icon('Listen', 'speaker', T), icon('Listen slowly', 'speaker_slow')] }),
  },

  // removed (no heal)
  {
    name: 'food: Apply promo code removed (promos now apply automatically), Apply gift card in its slot — different thing, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Apply promo code"',
    before: cart({ extras: [btn('Apply promo code', 'apply_promo', T), btn('Add a tip', 'add_tip')] }),
    after: cart({
      extras: [
        txt('WELCOME10 applied: −€2.00', 'promo_applied'),
        btn('Apply gift card', 'apply_gift_card'),
        btn('Add a tip', 'add_tip'),
      ],
    }),
  },
  {
    name: 'cards: Freeze card switch removed, Freeze payments abroad switch in its slot — narrower, different setting, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Freeze card"',
    before: cardSettings({
      switches: [
        sw('Contactless payments', 'contactless', { checked: true }),
        sw('Online payments', 'online_payments', { checked: true }),
        sw('Freeze card', 'freeze', T),
      ],
    }),
    after: cardSettings({
      switches: [
        sw('Contactless payments', 'contactless', { checked: true }),
        sw('Online payments', 'online_payments', { checked: true }),
        sw('Freeze payments abroad', 'freeze_abroad'),
      ],
    }),
  },
  {
    name: 'video: Watch trailer removed, Watch from the beginning in its slot — plays the episode, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Watch trailer"',
    before: title(btn('Watch trailer', 'trailer', T)),
    after: title(btn('Watch from the beginning', 'play_from_start')),
  },
  {
    name: 'news: Follow Climate (topic) removed from the footer, Follow Jane Doe (author) slid into its slot — no heal',
    category: 'removed',
    split: H,
    selector: 'id=follow_topic',
    before: article({ follow: [btn('Follow Climate', 'follow_topic', T), btn('Follow Jane Doe', 'follow_author')] }),
    after: article({ follow: [btn('Follow Jane Doe', 'follow_author')] }),
  },

  // dialog (no heal)
  {
    name: 'maps: the system location-permission dialog covers Start; its buttons are permission answers, not navigation — no heal',
    category: 'dialog',
    split: H,
    selector: 'id=start_nav',
    before: place([
      btn('Directions', 'directions'),
      btn('Start', 'start_nav', T),
      btn('Save', 'save_place'),
      btn('Share', 'share_place'),
    ]),
    after: screen('.permission.ui.GrantPermissionsActivity', [], {
      pkg: 'com.android.permissioncontroller',
      dialog: [
        txt('Allow Maps to access this device’s location?', 'permission_message', { h: 200 }),
        btn('While using the app', 'permission_allow_foreground_only_button'),
        btn('Only this time', 'permission_allow_one_time_button'),
        btn('Don’t allow', 'permission_deny_button'),
      ],
    }),
  },
  {
    name: 'pharmacy: a confirm-it’s-you password dialog covers Submit order; its Confirm is not the order button — no heal',
    category: 'dialog',
    split: H,
    selector: 'text="Submit order"',
    before: rxCheckout(btn('Submit order', 'submit_order', T)),
    after: screen('.CheckoutActivity', [], {
      pkg: PHARMACY,
      dialog: [
        txt('Confirm it’s you', 'alertTitle'),
        txt('Enter your password to order prescription items.', 'message'),
        field('Password', 'password', { password: true }),
        row([btn('Cancel', 'button2'), btn('Confirm', 'button1')]),
      ],
    }),
  },

  // disabled / ambiguous (no heal)
  {
    name: 'food: Place order id renamed btn_place_order and disabled (restaurant closed); Schedule for 17:00 is a different action — no heal',
    category: 'disabled',
    split: H,
    selector: 'id=place_order',
    before: cart({ order: [btn('Place order', 'place_order', T)] }),
    after: cart({
      order: [
        txt('Trattoria Nonna is closed. Opens at 17:00', 'closed_notice'),
        btn('Place order', 'btn_place_order', { enabled: false }),
        btn('Schedule for 17:00', 'schedule_order'),
      ],
    }),
  },
  {
    name: 'tickets: a second date added, each date row has its own Buy tickets — which night is unknowable, no heal',
    category: 'ambiguous',
    split: H,
    selector: 'text="Buy tickets"',
    before: event([
      txt('Sat, Dec 13 · 19:30', 'event_when'),
      row([btn('Buy tickets', 'buy', T), btn('Add to calendar', 'add_to_calendar')]),
    ]),
    after: event([
      item(
        [txt('Sat, Dec 13 · 19:30', 'date_label', { h: 168 }), btn('Buy tickets', 'buy', { w: 360, h: 168 })],
        'date_row',
        { row: true, h: 168 },
      ),
      item(
        [txt('Sun, Dec 14 · 17:00', 'date_label', { h: 168 }), btn('Buy tickets', 'buy', { w: 360, h: 168 })],
        'date_row',
        { row: true, h: 168 },
      ),
      btn('Add to calendar', 'add_to_calendar'),
    ]),
  },
];
