import { btn, check, col, field, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The fifth held-out split (`holdout5`): 30 cases on apps no other split has (hotel booking, car
 * sharing, a bookstore and e-reader, meditation, an airline's check-in, a shared grocery list,
 * utility-bill payment, a school's parent app, sports scores, bike rental, an insurance-claims
 * form, a cloud drive's sharing screen). Written blind to the scorer: without reading
 * framework/heal, the corpus evaluation, the healing tests or benchmarks, and without running the
 * healer on these cases; only `check.ts` (the locator names the target alone before, and is
 * broken after) was run. Never used to tune the scorer. Each `after` keys as `target` what a
 * careful tester would say the locator meant, or nothing when the honest answer is "no heal": the
 * control is gone (even when another of the same kind now sits in its slot or shares words with
 * its label), a dialog covers the screen, the only candidate is disabled (a step could not act on
 * it), or two candidates fit and nothing says which one the test meant.
 */
const T: Partial<V> = { key: 'target' };
const on = (yes: boolean): Partial<V> => (yes ? T : {});

const HOTEL = 'com.example.hotel';
const ROOM_EN = {
  title: 'Deluxe Double',
  share: 'Share',
  fav: 'Save to favourites',
  summary: 'Deluxe Double · 28 m² · City view',
  amenities: 'King bed · Free Wi-Fi · Air conditioning',
  checkin: 'Check-in: Fri, Mar 10',
  checkout: 'Check-out: Sun, Mar 12',
  guests: '2 adults · 1 room',
  breakfast: 'Add breakfast +€18 per night',
  price: '€284 for 2 nights',
  reserve: 'Reserve',
  contact: 'Contact property',
};
const ROOM_ES: typeof ROOM_EN = {
  title: 'Doble Deluxe',
  share: 'Compartir',
  fav: 'Guardar en favoritos',
  summary: 'Doble Deluxe · 28 m² · Vistas a la ciudad',
  amenities: 'Cama king · Wi-Fi gratis · Aire acondicionado',
  checkin: 'Entrada: vie, 10 mar',
  checkout: 'Salida: dom, 12 mar',
  guests: '2 adultos · 1 habitación',
  breakfast: 'Añadir desayuno +18 € por noche',
  price: '284 € por 2 noches',
  reserve: 'Reservar',
  contact: 'Contactar con el alojamiento',
};
const hotelRoom = (o: { l?: typeof ROOM_EN; dates?: V; cta?: V[] } = {}) => {
  const l = o.l ?? ROOM_EN;
  return screen(
    '.RoomActivity',
    [
      toolbar(l.title, [icon(l.share, 'share'), icon(l.fav, 'favourite')]),
      { role: 'image', desc: 'Room photo', id: 'room_photo', h: 720 },
      txt(l.summary, 'room_summary'),
      txt(l.amenities, 'room_amenities'),
      o.dates ?? row([btn(l.checkin, 'checkin_date'), btn(l.checkout, 'checkout_date')]),
      btn(l.guests, 'guests'),
      check(l.breakfast, 'add_breakfast'),
      txt(l.price, 'total_price'),
      ...(o.cta ?? [btn(l.reserve, 'reserve'), btn(l.contact, 'contact_property')]),
    ],
    { pkg: HOTEL },
  );
};

const CAR = 'com.example.carshare';
const CAR_INFO = [
  txt('VW ID.3 · LX-42-PQ', 'car_name'),
  txt('Battery 78% · 310 km', 'car_range', { h: 72 }),
  txt('€0.29/min · 350 m away', 'car_price', { h: 72 }),
];
const vehicle = (o: { card?: V; bottom?: V[] } = {}) =>
  screen(
    '.VehicleActivity',
    [
      toolbar('Car', [icon('Help', 'help')]),
      { role: 'image', desc: 'Map', id: 'map', h: 800 },
      o.card ?? item([...CAR_INFO, row([btn('Reserve', 'reserve_car'), btn('Unlock', 'unlock')])], 'vehicle_card'),
      ...(o.bottom ?? []),
    ],
    { pkg: CAR },
  );
const trip = (actions?: V[]) =>
  screen(
    '.TripActivity',
    [
      toolbar('Trip in progress'),
      txt('VW ID.3 · LX-42-PQ', 'car_name'),
      txt('00:23:41 · €6.87', 'trip_meter', { h: 120 }),
      { role: 'image', desc: 'Map', id: 'map', h: 800 },
      ...(actions ?? [
        btn('Pause trip', 'pause_trip'),
        btn('End trip', 'end_trip'),
        btn('Report damage', 'report_damage'),
      ]),
    ],
    { pkg: CAR },
  );

const BOOKS = 'com.example.books';
const book = (actions: V[]) =>
  screen(
    '.BookActivity',
    [
      toolbar('Book', [icon('Search', 'search'), icon('Wishlist', 'wishlist')]),
      { role: 'image', desc: 'Cover', id: 'cover', h: 720 },
      txt('The Salt Road', 'book_title', { h: 120 }),
      txt('Inês Moura · 2024 · 384 pages', 'book_meta'),
      txt('4.3 ★ · 1,208 ratings', 'book_rating'),
      ...actions,
      txt('A cartographer follows the old salt route from the coast to the mountains…', 'synopsis', { h: 360 }),
    ],
    { pkg: BOOKS },
  );
const reader = (o: { top?: V[]; bottom?: V[] } = {}) =>
  screen(
    '.ReaderActivity',
    [
      row(
        o.top ?? [
          icon('Back', 'back'),
          txt('The Salt Road', 'reader_title', { h: 168 }),
          icon('Display settings', 'font_settings'),
          icon('Table of contents', 'toc'),
        ],
      ),
      txt('The road began where the salt pans ended, in a country of white light and wind…', 'page_text', { h: 1500 }),
      row(
        o.bottom ?? [
          icon('Previous page', 'prev_page'),
          txt('Page 88 of 384', 'page_number', { h: 168 }),
          icon('Add bookmark', 'bookmark'),
          icon('Next page', 'next_page'),
        ],
      ),
    ],
    { pkg: BOOKS },
  );

const MIND = 'com.example.meditate';
const session = (o: { controls?: V[]; below?: V[]; start?: V } = {}) =>
  screen(
    '.SessionActivity',
    [
      toolbar('Evening wind-down', [icon('Favourite', 'favourite')]),
      { role: 'image', desc: 'Session artwork', id: 'artwork', h: 600 },
      txt('10 min · Guided · Narrated by Lena', 'session_meta'),
      row(o.controls ?? [icon('Sleep timer', 'sleep_timer'), icon('Download', 'download'), icon('Share', 'share')]),
      ...(o.below ?? [sw('Background sounds', 'bg_sounds', { checked: true }), sw('Bell at the end', 'end_bell')]),
      o.start ?? btn('Start session', 'start_session'),
    ],
    { pkg: MIND },
  );

const AIR = 'com.example.airline';
const myTrip = (cta?: V) =>
  screen(
    '.TripActivity',
    [
      toolbar('My trips', [icon('Profile', 'profile')]),
      txt('LIS → AMS · TP 668', 'flight_route', { h: 120 }),
      txt('Thu, Mar 9 · Departs 07:05', 'flight_time'),
      txt('Booking ref QX7T2M', 'booking_ref'),
      cta ?? btn('Check in', 'check_in'),
      btn('Manage booking', 'manage_booking'),
    ],
    { pkg: AIR },
  );
const PASS_EN = {
  title: 'Boarding pass',
  share: 'Share',
  gate: 'Boarding group 3 · Gate B12',
  code: 'Boarding pass barcode',
  save: 'Save boarding pass',
};
const PASS_PT: typeof PASS_EN = {
  title: 'Cartão de embarque',
  share: 'Partilhar',
  gate: 'Grupo de embarque 3 · Porta B12',
  code: 'Código de barras do cartão de embarque',
  save: 'Guardar cartão de embarque',
};
const boardingPass = (o: { l?: typeof PASS_EN; save?: V } = {}) => {
  const l = o.l ?? PASS_EN;
  return screen(
    '.BoardingPassActivity',
    [
      toolbar(l.title, [icon('Help', 'help')]),
      txt('Ana Lima', 'passenger_name'),
      txt('LIS → AMS · TP 668 · Seat 14C', 'pass_flight'),
      txt(l.gate, 'pass_gate'),
      { role: 'image', desc: l.code, id: 'barcode', h: 600 },
      row([o.save ?? btn(l.save, 'save_pass'), btn(l.share, 'share_pass')]),
    ],
    { pkg: AIR },
  );
};

const GROCERY = 'com.example.grocery';
const LIST_EN = { title: 'Weekly shop', sort: 'Sort', add: 'Add item', remove: 'Remove checked', share: 'Share list' };
const LIST_DE: typeof LIST_EN = {
  title: 'Wocheneinkauf',
  sort: 'Sortieren',
  add: 'Artikel hinzufügen',
  remove: 'Abgehakte entfernen',
  share: 'Liste teilen',
};
const gItem = (name: string, qty: string, o: { rowId?: string; key?: boolean; checked?: boolean } = {}) =>
  item(
    [
      {
        role: 'checkbox',
        id: 'bought',
        clickable: true,
        checkable: true,
        checked: !!o.checked,
        w: 168,
        h: 168,
        ...on(!!o.key),
      },
      col([txt(name, 'item_name'), txt(qty, 'item_qty', { h: 72 })]),
    ],
    o.rowId ?? 'grocery_row',
    { row: true, h: 168 },
  );
const groceryList = (rows: V[], o: { l?: typeof LIST_EN; actions?: V[] } = {}) => {
  const l = o.l ?? LIST_EN;
  return screen(
    '.ListActivity',
    [
      toolbar(l.title, [icon(l.sort, 'sort')]),
      field(l.add, 'add_item'),
      ...rows,
      row(o.actions ?? [btn(l.remove, 'remove_checked'), btn(l.share, 'share_list')]),
    ],
    { pkg: GROCERY },
  );
};
const WEEK = (key?: string, rowId?: string) => [
  gItem('Sourdough bread', '1', { rowId, key: key === 'Sourdough bread', checked: true }),
  gItem('Oat milk', '2 × 1 L', { rowId, key: key === 'Oat milk' }),
  gItem('Tomatoes', '500 g', { rowId, key: key === 'Tomatoes' }),
  gItem('Eggs', '12', { rowId, key: key === 'Eggs' }),
];

const BILLS = 'com.example.bills';
const bill = (name: string, provider: string, due: string, amount: string, o: { pay?: string; key?: boolean } = {}) =>
  item(
    [
      col([txt(name, 'bill_name'), txt(`${provider} · due ${due}`, 'bill_due', { h: 72 })]),
      txt(amount, 'bill_amount', { w: 220, h: 168 }),
      btn(o.pay ?? 'Pay', 'pay', { w: 240, h: 168, ...on(!!o.key) }),
    ],
    'bill_row',
    { row: true, h: 168 },
  );
const billsList = (summary: string, rows: V[]) =>
  screen(
    '.BillsActivity',
    [toolbar('Bills', [icon('Add a bill', 'add_bill')]), txt(summary, 'bills_summary'), ...rows],
    { pkg: BILLS },
  );
const billDetail = (o: { fields?: V[]; actions?: V[] } = {}) =>
  screen(
    '.BillActivity',
    [
      toolbar('Electricity', [icon('More options', 'overflow')]),
      txt('EDP Comercial · Account 4410 2287', 'bill_provider'),
      txt('€84.20 due Mar 14', 'bill_amount_due', { h: 120 }),
      ...(o.fields ?? [field('Amount (€)', 'amount'), field('Email for receipt', 'receipt_email')]),
      btn('Pay', 'pay_bill'),
      ...(o.actions ?? [
        btn('Set up autopay', 'autopay'),
        btn('Download bill (PDF)', 'download_pdf'),
        btn('View usage', 'view_usage'),
      ]),
    ],
    { pkg: BILLS },
  );

const SCHOOL = 'com.example.school';
const child = (actions: V[], notice: V[] = []) =>
  screen(
    '.ChildActivity',
    [
      toolbar('Maya', [icon('Switch child', 'switch_child')]),
      txt('Year 4 · Class 4B · Ms. Okafor', 'class_info'),
      txt('Attendance this term: 97%', 'attendance'),
      ...notice,
      ...actions,
    ],
    { pkg: SCHOOL },
  );

const SCORES = 'com.example.scores';
const match = (o: { watch?: V[]; teams?: V } = {}) =>
  screen(
    '.MatchActivity',
    [
      toolbar('Match', [icon('Match alerts', 'match_alerts')]),
      txt('Primeira Liga · Matchday 24', 'competition'),
      txt('SL Benfica 2 – 1 FC Porto · 67′', 'score', { h: 200 }),
      ...(o.watch ?? [btn('Watch live', 'watch_live')]),
      o.teams ?? row([btn('Follow SL Benfica', 'follow_home'), btn('Follow FC Porto', 'follow_away')]),
      txt('Possession 58% – 42%', 'stat_possession'),
      txt('Shots 11 – 7', 'stat_shots'),
    ],
    { pkg: SCORES },
  );

const BIKES = 'com.example.bikes';
const station = (availability: string, actions: V[]) =>
  screen(
    '.StationActivity',
    [
      toolbar('Station', [icon('Favourite station', 'fav_station')]),
      txt('Cais do Sodré · 120 m', 'station_name', { h: 120 }),
      txt(availability, 'station_availability'),
      { role: 'image', desc: 'Map', id: 'map', h: 700 },
      ...actions,
      btn('Directions', 'directions'),
    ],
    { pkg: BIKES },
  );

const CLAIMS = 'com.example.claims';
const claimForm = (o: { photosTop?: V[]; photosBelow?: V[]; declaration?: V[]; actions?: V[] } = {}) =>
  screen(
    '.NewClaimActivity',
    [
      toolbar('New claim', [icon('Close', 'close')]),
      txt('Home insurance · Policy HM-20931', 'policy'),
      ...(o.photosTop ?? [btn('Add photos', 'add_photos')]),
      field('Date of incident', 'incident_date'),
      field('What happened?', 'description', { h: 288 }),
      ...(o.photosBelow ?? []),
      ...(o.declaration ?? []),
      row(o.actions ?? [btn('Save draft', 'save_draft'), btn('Submit claim', 'submit_claim')]),
    ],
    { pkg: CLAIMS },
  );

const DRIVE = 'com.example.drive';
const member = (name: string, email: string, action: V, rowId = 'member') =>
  item([col([txt(name, 'member_name'), txt(email, 'member_email', { h: 72 })]), action], rowId, { row: true, h: 168 });
const roleBtn = (label: string, o: { id?: string; key?: boolean } = {}) =>
  btn(label, o.id ?? 'role', { w: 280, h: 168, ...on(!!o.key) });
const OWNER = member('Rui Costa (you)', 'rui.costa@example.com', txt('Owner', 'role_owner', { w: 280, h: 168 }));
const shareScreen = (o: { invite?: V[]; members?: V[]; link?: V[] } = {}) =>
  screen(
    '.ShareActivity',
    [
      toolbar('Share “Budget 2026.xlsx”', [icon('Help', 'help')]),
      ...(o.invite ?? [field('Add people or groups', 'add_people'), field('Message (optional)', 'invite_message')]),
      txt('People with access', 'access_header'),
      ...(o.members ?? [OWNER, member('Ana Lima', 'ana.lima@example.com', roleBtn('Editor'))]),
      txt('General access', 'general_header'),
      txt('Restricted · Only people with access can open', 'general_access'),
      row(o.link ?? [btn('Get link', 'get_link'), btn('Done', 'done')]),
    ],
    { pkg: DRIVE },
  );

const H = 'holdout' as const;

export const HOLDOUT5: DriftCase[] = [
  // renamed-id
  {
    name: 'hotel: Reserve id renamed btn_reserve, label kept, Contact property below',
    category: 'renamed-id',
    split: H,
    selector: 'id=reserve',
    before: hotelRoom({ cta: [btn('Reserve', 'reserve', T), btn('Contact property', 'contact_property')] }),
    after: hotelRoom({ cta: [btn('Reserve', 'btn_reserve', T), btn('Contact property', 'contact_property')] }),
  },
  {
    name: 'bills: Amount (€) field id renamed payment_amount, hint kept; Email for receipt field below (re-ided too)',
    category: 'renamed-id',
    split: H,
    selector: 'id=amount',
    before: billDetail({ fields: [field('Amount (€)', 'amount', T), field('Email for receipt', 'receipt_email')] }),
    after: billDetail({
      fields: [field('Amount (€)', 'payment_amount', T), field('Email for receipt', 'receipt_email_input')],
    }),
  },
  {
    name: 'meditate: Background sounds switch id renamed ambient_toggle, label kept; Bell at the end switch below',
    category: 'renamed-id',
    split: H,
    selector: 'id=bg_sounds',
    before: session({
      below: [sw('Background sounds', 'bg_sounds', { checked: true, ...T }), sw('Bell at the end', 'end_bell')],
    }),
    after: session({
      below: [sw('Background sounds', 'ambient_toggle', { checked: true, ...T }), sw('Bell at the end', 'bell_toggle')],
    }),
  },

  // reworded
  {
    name: 'books: Buy now reworded Buy · €9.99, id kept',
    category: 'reworded',
    split: H,
    selector: 'text="Buy now"',
    before: book([btn('Buy now', 'buy', T), btn('Read sample', 'read_sample')]),
    after: book([btn('Buy · €9.99', 'buy', T), btn('Read sample', 'read_sample')]),
  },
  {
    name: 'airline: Check in reworded Start check-in, id kept, Manage booking below',
    category: 'reworded',
    split: H,
    selector: 'text="Check in"',
    before: myTrip(btn('Check in', 'check_in', T)),
    after: myTrip(btn('Start check-in', 'check_in', T)),
  },
  {
    name: 'drive: Get link reworded Copy link, id renamed copy_link (hard), Done beside it',
    category: 'reworded',
    split: H,
    selector: 'text="Get link"',
    before: shareScreen({ link: [btn('Get link', 'get_link', T), btn('Done', 'done')] }),
    after: shareScreen({ link: [btn('Copy link', 'copy_link', T), btn('Done', 'done')] }),
  },
  {
    name: 'claims: Save draft reworded Save and finish later, id renamed save_for_later (hard), Submit claim beside it',
    category: 'reworded',
    split: H,
    selector: 'text="Save draft"',
    before: claimForm({ actions: [btn('Save draft', 'save_draft', T), btn('Submit claim', 'submit_claim')] }),
    after: claimForm({
      actions: [btn('Save and finish later', 'save_for_later', T), btn('Submit claim', 'submit_claim')],
    }),
  },
  {
    name: 'school: Report absence reworded Notify an absence, id renamed notify_absence (hard); View report card shares "report" but is not it',
    category: 'reworded',
    split: H,
    selector: 'text="Report absence"',
    before: child([
      btn('Report absence', 'report_absence', T),
      btn('Pay for lunch', 'pay_lunch'),
      btn('Book parent meeting', 'book_meeting'),
      btn('View report card', 'report_card'),
    ]),
    after: child([
      btn('Notify an absence', 'notify_absence', T),
      btn('Pay for lunch', 'pay_lunch'),
      btn('Book parent meeting', 'book_meeting'),
      btn('View report card', 'report_card'),
    ]),
  },

  // translated
  {
    name: 'hotel: room screen translated (es), Contact property now Contactar con el alojamiento and id renamed contact_host; Reservar above it',
    category: 'translated',
    split: H,
    selector: 'text="Contact property"',
    before: hotelRoom({ cta: [btn('Reserve', 'reserve'), btn('Contact property', 'contact_property', T)] }),
    after: hotelRoom({
      l: ROOM_ES,
      cta: [btn('Reservar', 'reserve'), btn('Contactar con el alojamiento', 'contact_host', T)],
    }),
  },
  {
    name: 'airline: boarding pass translated (pt), Save boarding pass now Guardar cartão de embarque, id kept; Partilhar beside it',
    category: 'translated',
    split: H,
    selector: 'text="Save boarding pass"',
    before: boardingPass({ save: btn('Save boarding pass', 'save_pass', T) }),
    after: boardingPass({ l: PASS_PT, save: btn('Guardar cartão de embarque', 'save_pass', T) }),
  },
  {
    name: 'grocery: list translated (de), Remove checked now Abgehakte entfernen and id renamed clear_checked; Liste teilen beside it',
    category: 'translated',
    split: H,
    selector: 'text="Remove checked"',
    before: groceryList(WEEK(), {
      actions: [btn('Remove checked', 'remove_checked', T), btn('Share list', 'share_list')],
    }),
    after: groceryList(WEEK(), {
      l: LIST_DE,
      actions: [btn('Abgehakte entfernen', 'clear_checked', T), btn('Liste teilen', 'share_list')],
    }),
  },

  // moved
  {
    name: 'carshare: Unlock moved out of the vehicle card into a bottom bar (id kept), beside a new Honk horn icon; Reserve stays in the card',
    category: 'moved',
    split: H,
    selector: 'id=vehicle_card >> text="Unlock"',
    before: vehicle({
      card: item([...CAR_INFO, row([btn('Reserve', 'reserve_car'), btn('Unlock', 'unlock', T)])], 'vehicle_card'),
    }),
    after: vehicle({
      card: item([...CAR_INFO, btn('Reserve', 'reserve_car')], 'vehicle_card'),
      bottom: [row([btn('Unlock', 'unlock', T), icon('Honk horn', 'honk')])],
    }),
  },
  {
    name: 'books: reader Add bookmark icon moved from the bottom bar to the top bar, id renamed action_bookmark, desc kept',
    category: 'moved',
    split: H,
    selector: 'id=bookmark',
    before: reader({
      bottom: [
        icon('Previous page', 'prev_page'),
        txt('Page 88 of 384', 'page_number', { h: 168 }),
        icon('Add bookmark', 'bookmark', T),
        icon('Next page', 'next_page'),
      ],
    }),
    after: reader({
      top: [
        icon('Back', 'back'),
        txt('The Salt Road', 'reader_title', { h: 168 }),
        icon('Add bookmark', 'action_bookmark', T),
        icon('Display settings', 'font_settings'),
        icon('Table of contents', 'toc'),
      ],
      bottom: [
        icon('Previous page', 'prev_page'),
        txt('Page 88 of 384', 'page_number', { h: 168 }),
        icon('Next page', 'next_page'),
      ],
    }),
  },
  {
    name: 'meditate: Sleep timer icon moved into a Session options list as a text row Sleep timer · Off (id sleep_timer_setting)',
    category: 'moved',
    split: H,
    selector: 'desc="Sleep timer"',
    before: session({
      controls: [icon('Sleep timer', 'sleep_timer', T), icon('Download', 'download'), icon('Share', 'share')],
    }),
    after: session({
      controls: [icon('Download', 'download'), icon('Share', 'share')],
      below: [
        txt('Session options', 'section_options'),
        btn('Sleep timer · Off', 'sleep_timer_setting', T),
        sw('Background sounds', 'bg_sounds', { checked: true }),
        sw('Bell at the end', 'end_bell'),
      ],
    }),
  },
  {
    name: 'claims: Add photos button moved from the top of the form into a Photos header below the description, now an icon (desc Add photos, id photos_add)',
    category: 'moved',
    split: H,
    selector: 'text="Add photos"',
    before: claimForm({ photosTop: [btn('Add photos', 'add_photos', T)] }),
    after: claimForm({
      photosTop: [],
      photosBelow: [row([txt('Photos', 'photos_header', { h: 168 }), icon('Add photos', 'photos_add', T)])],
    }),
  },

  // reordered
  {
    name: 'grocery: list grouped by aisle, row id renamed list_entry; the Oat milk row’s checkbox, not the one now in its old slot',
    category: 'reordered',
    split: H,
    selector: 'id=grocery_row >> has-text="Oat milk" >> role=checkbox',
    before: groceryList(WEEK('Oat milk')),
    after: groceryList([
      txt('Bakery', 'aisle_header'),
      gItem('Sourdough bread', '1', { rowId: 'list_entry', checked: true }),
      txt('Produce', 'aisle_header'),
      gItem('Tomatoes', '500 g', { rowId: 'list_entry' }),
      txt('Dairy & eggs', 'aisle_header'),
      gItem('Eggs', '12', { rowId: 'list_entry' }),
      gItem('Oat milk', '2 × 1 L', { rowId: 'list_entry', key: true }),
    ]),
  },
  {
    name: 'bills: list sorted by amount with a new Gas bill, Pay reworded Pay now; the Water row’s button',
    category: 'reordered',
    split: H,
    selector: 'id=bill_row >> has-text="Water" >> text="Pay"',
    before: billsList('3 bills due this month · €147.29', [
      bill('Electricity', 'EDP', 'Mar 14', '€84.20'),
      bill('Water', 'EPAL', 'Mar 20', '€23.10', { key: true }),
      bill('Internet', 'MEO', 'Mar 28', '€39.99'),
    ]),
    after: billsList('4 bills due this month · €178.79', [
      bill('Electricity', 'EDP', 'Mar 14', '€84.20', { pay: 'Pay now' }),
      bill('Internet', 'MEO', 'Mar 28', '€39.99', { pay: 'Pay now' }),
      bill('Gas', 'Galp', 'Mar 11', '€31.50', { pay: 'Pay now' }),
      bill('Water', 'EPAL', 'Mar 20', '€23.10', { pay: 'Pay now', key: true }),
    ]),
  },
  {
    name: 'drive: people with access sorted by name, role button id renamed permission_spinner; Ana Lima’s Editor, not Beatriz Sá’s now in its slot',
    category: 'reordered',
    split: H,
    selector: 'id=member >> has-text="Ana Lima" >> id=role',
    before: shareScreen({
      members: [
        OWNER,
        member('Tomás Reis', 'tomas.reis@example.com', roleBtn('Viewer')),
        member('Ana Lima', 'ana.lima@example.com', roleBtn('Editor', { key: true })),
        member('Beatriz Sá', 'beatriz.sa@example.com', roleBtn('Commenter')),
      ],
    }),
    after: shareScreen({
      members: [
        OWNER,
        member('Ana Lima', 'ana.lima@example.com', roleBtn('Editor', { id: 'permission_spinner', key: true })),
        member('Beatriz Sá', 'beatriz.sa@example.com', roleBtn('Commenter', { id: 'permission_spinner' })),
        member('Tomás Reis', 'tomas.reis@example.com', roleBtn('Viewer', { id: 'permission_spinner' })),
      ],
    }),
  },

  // look-alike
  {
    name: 'hotel: date buttons re-ided stay_start/stay_end, labels now bare dates under Arrive/Depart; the check-out date, not check-in',
    category: 'look-alike',
    split: H,
    selector: 'id=checkout_date',
    before: hotelRoom({
      dates: row([btn('Check-in: Fri, Mar 10', 'checkin_date'), btn('Check-out: Sun, Mar 12', 'checkout_date', T)]),
    }),
    after: hotelRoom({
      dates: row(
        [
          col([txt('Arrive', 'arrive_label', { h: 72 }), btn('Fri, Mar 10', 'stay_start')]),
          col([txt('Depart', 'depart_label', { h: 72 }), btn('Sun, Mar 12', 'stay_end', T)]),
        ],
        { h: 216 },
      ),
    }),
  },
  {
    name: 'drive: invite fields re-ided invite_input/invite_note, hints Name or email / Add a message; the people field, not the message one',
    category: 'look-alike',
    split: H,
    selector: 'id=add_people',
    before: shareScreen({
      invite: [field('Add people or groups', 'add_people', T), field('Message (optional)', 'invite_message')],
    }),
    after: shareScreen({ invite: [field('Name or email', 'invite_input', T), field('Add a message', 'invite_note')] }),
  },
  {
    name: 'scores: Follow SL Benfica / Follow FC Porto became team cards each with a plain Follow; Benfica’s, not Porto’s',
    category: 'look-alike',
    split: H,
    selector: 'text="Follow SL Benfica"',
    before: match({ teams: row([btn('Follow SL Benfica', 'follow_home', T), btn('Follow FC Porto', 'follow_away')]) }),
    after: match({
      teams: row(
        [
          item([txt('SL Benfica', 'team_name'), btn('Follow', 'follow_team', T)], 'team_card'),
          item([txt('FC Porto', 'team_name'), btn('Follow', 'follow_team')], 'team_card'),
        ],
        { h: 240 },
      ),
    }),
  },

  // removed (no heal)
  {
    name: 'carshare: Pause trip removed (no more paused parking), End trip slid into its slot — shares "trip", ends the rental, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Pause trip"',
    before: trip([
      btn('Pause trip', 'pause_trip', T),
      btn('End trip', 'end_trip'),
      btn('Report damage', 'report_damage'),
    ]),
    after: trip([btn('End trip', 'end_trip'), btn('Report damage', 'report_damage')]),
  },
  {
    name: 'books: Read sample removed, Read reviews (1,208) in its slot — shares "Read", different thing, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Read sample"',
    before: book([btn('Buy now', 'buy'), btn('Read sample', 'read_sample', T)]),
    after: book([btn('Buy now', 'buy'), btn('Read reviews (1,208)', 'read_reviews')]),
  },
  {
    name: 'scores: Watch live removed (streaming rights ended), Watch highlights in its slot — a different video, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Watch live"',
    before: match({ watch: [btn('Watch live', 'watch_live', T)] }),
    after: match({
      watch: [
        txt('Live streaming is not available for this match', 'stream_notice'),
        btn('Watch highlights', 'watch_highlights'),
      ],
    }),
  },
  {
    name: 'bills: Set up autopay removed from the bill (moved to account settings), Set up payment reminders in its slot — no heal',
    category: 'removed',
    split: H,
    selector: 'text="Set up autopay"',
    before: billDetail({
      actions: [
        btn('Set up autopay', 'autopay', T),
        btn('Download bill (PDF)', 'download_pdf'),
        btn('View usage', 'view_usage'),
      ],
    }),
    after: billDetail({
      actions: [
        btn('Set up payment reminders', 'reminders'),
        btn('Download bill (PDF)', 'download_pdf'),
        btn('View usage', 'view_usage'),
      ],
    }),
  },
  {
    name: 'school: Pay for lunch removed (meals paid elsewhere now), Pay for school trip in its slot — different payment, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Pay for lunch"',
    before: child([
      btn('Report absence', 'report_absence'),
      btn('Pay for lunch', 'pay_lunch', T),
      btn('Book parent meeting', 'book_meeting'),
      btn('View report card', 'report_card'),
    ]),
    after: child(
      [
        btn('Report absence', 'report_absence'),
        btn('Pay for school trip', 'pay_trip'),
        btn('Book parent meeting', 'book_meeting'),
        btn('View report card', 'report_card'),
      ],
      [txt('School meals are now paid in the council’s meals app', 'meals_notice')],
    ),
  },

  // dialog (no heal)
  {
    name: 'books: a sync dialog (you read to page 212 on another device) covers the reader; Go to page 212 is not Next page — no heal',
    category: 'dialog',
    split: H,
    selector: 'desc="Next page"',
    before: reader({
      bottom: [
        icon('Previous page', 'prev_page'),
        txt('Page 88 of 384', 'page_number', { h: 168 }),
        icon('Add bookmark', 'bookmark'),
        icon('Next page', 'next_page', T),
      ],
    }),
    after: screen('.ReaderActivity', [], {
      pkg: BOOKS,
      dialog: [
        txt('Continue where you left off?', 'alertTitle'),
        txt('You read up to page 212 on another device.', 'message', { h: 200 }),
        row([btn('Stay on page 88', 'button2'), btn('Go to page 212', 'button1')]),
      ],
    }),
  },
  {
    name: 'meditate: a free-trial paywall dialog covers Start session; its Start free trial shares "Start" but subscribes — no heal',
    category: 'dialog',
    split: H,
    selector: 'text="Start session"',
    before: session({ start: btn('Start session', 'start_session', T) }),
    after: screen('.SessionActivity', [], {
      pkg: MIND,
      dialog: [
        txt('Unlock every session', 'paywall_title', { h: 120 }),
        txt('7 days free, then €59.99/year. Cancel anytime.', 'paywall_body', { h: 200 }),
        btn('Start free trial', 'start_trial'),
        btn('Not now', 'dismiss'),
      ],
    }),
  },

  // disabled / ambiguous (no heal)
  {
    name: 'claims: a required declaration checkbox added, Submit claim id renamed btn_submit_claim and disabled until it is ticked — no heal',
    category: 'disabled',
    split: H,
    selector: 'id=submit_claim',
    before: claimForm({ actions: [btn('Save draft', 'save_draft'), btn('Submit claim', 'submit_claim', T)] }),
    after: claimForm({
      declaration: [check('I confirm the information I gave is true and complete', 'declaration')],
      actions: [btn('Save draft', 'save_draft'), btn('Submit claim', 'btn_submit_claim', { enabled: false })],
    }),
  },
  {
    name: 'bikes: Reserve a bike split into Reserve e-bike and Reserve classic bike — which kind the test meant is unknowable, no heal',
    category: 'ambiguous',
    split: H,
    selector: 'text="Reserve a bike"',
    before: station('7 bikes · 4 free docks', [btn('Reserve a bike', 'reserve_bike', T)]),
    after: station('4 e-bikes · 3 classic bikes · 4 free docks', [
      btn('Reserve e-bike', 'reserve_ebike'),
      btn('Reserve classic bike', 'reserve_classic'),
    ]),
  },
];
