import { btn, check, col, field, icon, item, row, screen, sw, toolbar, txt, type DriftCase, type V } from './dsl.js';

/**
 * The third held-out split (`holdout3`): 30 cases on screens no other split has (a music player,
 * a ride-hailing app, a fitness tracker, a recipe app, a hotel booking form, a podcast app, a
 * to-do list, a weather app, a messenger sign-up flow, a photo editor). Written blind to the
 * scorer: without reading framework/heal or the corpus evaluation, and without running the healer
 * on these cases; only `check.ts` (the locator names the target alone before, and is broken after)
 * was run. Never used to tune the scorer. Each `after` keys as `target` what a careful tester would
 * say the locator meant, or nothing when the honest answer is "no heal" (gone, replaced by a
 * different action, behind a dialog, or one of several with no way to tell).
 */
const T: Partial<V> = { key: 'target' };
const on = (yes: boolean): Partial<V> => (yes ? T : {});

const MUSIC = 'com.example.music';
const player = (o: { controls?: V[]; actions?: V[]; below?: V[] } = {}) =>
  screen(
    '.NowPlayingActivity',
    [
      toolbar('Now playing', o.actions ?? [icon('Queue', 'queue'), icon('More options', 'overflow')]),
      { role: 'image', desc: 'Album art', id: 'album_art', h: 960 },
      txt('Blue in Green', 'track_title', { h: 120 }),
      txt('Miles Davis · Kind of Blue', 'track_artist'),
      row(
        o.controls ?? [
          icon('Shuffle', 'shuffle'),
          icon('Previous', 'prev'),
          icon('Play', 'play'),
          icon('Next', 'next'),
          icon('Repeat', 'repeat'),
        ],
      ),
      ...(o.below ?? [btn('Add to playlist', 'add_to_playlist')]),
    ],
    { pkg: MUSIC },
  );

const RIDES = 'com.example.rides';
const option = (name: string, price: string) =>
  item([txt(name, 'option_name'), txt(price, 'option_price', { h: 72 })], 'ride_option');
const booking = (o: { fields?: V[]; request?: V } = {}) =>
  screen(
    '.BookingActivity',
    [
      toolbar('Book a ride', [icon('Menu', 'menu')]),
      ...(o.fields ?? [field('Pickup location', 'pickup'), field('Where to?', 'destination')]),
      option('Economy', '$12.40'),
      option('Comfort', '$16.80'),
      option('XL', '$21.10'),
      o.request ?? btn('Request ride', 'request_ride'),
      btn('Schedule for later', 'schedule'),
    ],
    { pkg: RIDES },
  );

const FIT = 'com.example.fitness';
const LOG_EN = {
  title: 'Log workout',
  distance: 'Distance (km)',
  duration: 'Duration (min)',
  notes: 'Notes',
  share: 'Share to feed',
  save: 'Save workout',
};
const LOG_ES = {
  title: 'Registrar entrenamiento',
  distance: 'Distancia (km)',
  duration: 'Duración (min)',
  notes: 'Notas',
  share: 'Compartir en el feed',
  save: 'Guardar entrenamiento',
};
const logWorkout = (o: { l?: typeof LOG_EN; share?: V | null; save?: V; below?: V[] } = {}) => {
  const l = o.l ?? LOG_EN;
  return screen(
    '.LogWorkoutActivity',
    [
      toolbar(l.title, [icon('Close', 'close')]),
      field(l.distance, 'distance'),
      field(l.duration, 'duration'),
      field(l.notes, 'notes', { h: 288 }),
      ...(o.share === null ? [] : [o.share ?? sw(l.share, 'share')]),
      o.save ?? btn(l.save, 'save'),
      ...(o.below ?? []),
    ],
    { pkg: FIT },
  );
};
const card = (title: string, meta: string, start: V) =>
  col([txt(title, 'card_title', { h: 120 }), txt(meta, 'card_meta', { h: 72 }), start]);
const today = (cards: V[]) =>
  screen(
    '.TodayActivity',
    [toolbar('Today', [icon('Profile', 'profile')]), txt('6,240 steps', 'steps', { h: 200 }), ...cards],
    { pkg: FIT },
  );

const RECIPES = 'com.example.recipes';
const RECIPE_EN = { ingredients: 'Ingredients', list: 'Add to shopping list', cook: 'Start cooking' };
const RECIPE_DE = { ingredients: 'Zutaten', list: 'Auf die Einkaufsliste', cook: 'Kochen starten' };
const recipe = (o: { l?: typeof RECIPE_EN; cook?: V; body?: V[] } = {}) => {
  const l = o.l ?? RECIPE_EN;
  return screen(
    '.RecipeActivity',
    [
      toolbar('Lemon pasta', [icon('Favorite', 'favorite'), icon('Share', 'share')]),
      txt('20 min · Serves 2', 'meta'),
      ...(o.body ?? [
        txt(l.ingredients, 'section_title'),
        check('200 g spaghetti', 'ingredient'),
        check('1 lemon', 'ingredient'),
        check('50 g parmesan', 'ingredient'),
        btn(l.list, 'add_to_list'),
      ]),
      o.cook ?? btn(l.cook, 'start_cooking'),
    ],
    { pkg: RECIPES },
  );
};

const TRAVEL = 'com.example.travel';
const guestDetails = (o: { fields?: V[]; book?: V } = {}) =>
  screen(
    '.GuestDetailsActivity',
    [
      toolbar('Guest details'),
      txt('Hotel Alfama · 2 nights · Dec 4–6', 'summary'),
      ...(o.fields ?? [
        field('First name', 'first_name'),
        field('Last name', 'last_name'),
        field('Email', 'email'),
        field('Phone', 'phone'),
      ]),
      check('I agree to the booking terms', 'terms'),
      txt('Total €248', 'total'),
      o.book ?? btn('Book', 'book'),
    ],
    { pkg: TRAVEL },
  );

const PODCASTS = 'com.example.podcasts';
const episode = (o: { mark?: V } = {}) =>
  screen(
    '.EpisodeActivity',
    [
      toolbar('Episode', [icon('Share', 'share')]),
      txt('#42: Sleep science', 'episode_title', { h: 120 }),
      txt('The Curious Hour · 48 min', 'episode_meta'),
      btn('Play', 'play'),
      o.mark ?? btn('Mark as played', 'mark_played'),
      icon('Download', 'download'),
      txt('How much sleep do we really need? A researcher explains.', 'show_notes', { h: 480 }),
    ],
    { pkg: PODCASTS },
  );
const show = (titles: string[], o: { key?: string; desc?: string } = {}) =>
  screen(
    '.ShowActivity',
    [
      toolbar('The Curious Hour', [icon('Search', 'search')]),
      btn('Subscribe', 'subscribe'),
      ...titles.map((t) =>
        item(
          [txt(t, 'episode_title', { h: 168 }), icon(o.desc ?? 'Download', 'download', on(t === o.key))],
          'episode_row',
          { row: true, h: 168 },
        ),
      ),
    ],
    { pkg: PODCASTS },
  );

const TODO = 'com.example.todo';
const tasks = (names: string[], o: { rowId?: string; key?: string; toggle?: V; fab?: V } = {}) =>
  screen(
    '.TaskListActivity',
    [
      toolbar('My tasks', [icon('Sort', 'sort')]),
      ...names.map((n) =>
        item(
          [
            { role: 'checkbox', id: 'task_done', clickable: true, checkable: true, w: 168, h: 168, ...on(n === o.key) },
            txt(n, 'task_title', { h: 168 }),
          ],
          o.rowId ?? 'task_row',
          { row: true, h: 168 },
        ),
      ),
      o.toggle ?? sw('Show completed', 'show_completed'),
      o.fab ?? icon('Add task', 'add'),
    ],
    { pkg: TODO },
  );
const taskDetail = (actions: V[]) =>
  screen(
    '.TaskDetailActivity',
    [
      toolbar('Task', [icon('Edit', 'edit')]),
      txt('Pay rent', 'task_title', { h: 120 }),
      txt('Due Mon, Dec 1', 'due'),
      check('Done', 'done'),
      row(actions),
    ],
    { pkg: TODO },
  );

const WEATHER = 'com.example.weather';
const cities = (names: string[], o: { rowId?: string; key?: string; title?: string; add?: V } = {}) =>
  screen(
    '.LocationsActivity',
    [
      toolbar(o.title ?? 'Locations', [icon('Edit', 'edit')]),
      ...names.map((n) =>
        item([txt(n, 'city_name'), txt('18° · Sunny', 'city_temp', { h: 72 })], o.rowId ?? 'city_row', on(n === o.key)),
      ),
      o.add ?? btn('Add city', 'add_city'),
    ],
    { pkg: WEATHER },
  );
const units = (switches: V[]) =>
  screen('.UnitsActivity', [toolbar('Units'), ...switches, txt('Wind speed: km/h', 'wind_unit', { clickable: true })], {
    pkg: WEATHER,
  });

const MSG = 'com.example.messenger';
const phoneStep = (next: V) =>
  screen(
    '.SignupPhoneActivity',
    [
      toolbar('Your phone number'),
      txt('We will text you a code to verify it', 'subtitle'),
      row([field('+1', 'country_code', { w: 240 }), field('Phone number', 'phone')]),
      next,
      btn('Use email instead', 'use_email'),
    ],
    { pkg: MSG },
  );
const passwordStep = (fields: V[]) =>
  screen(
    '.SignupPasswordActivity',
    [toolbar('Create a password'), ...fields, txt('At least 8 characters', 'rules'), btn('Next', 'next')],
    { pkg: MSG },
  );

const PHOTO = 'com.example.photos';
const editor = (o: { actions?: V[]; apply?: V } = {}) =>
  screen(
    '.EditorActivity',
    [
      toolbar(
        'Edit',
        o.actions ?? [btn('Save', 'save', { w: 240, h: 168 }), btn('Export', 'export', { w: 240, h: 168 })],
      ),
      { role: 'image', desc: 'Photo preview', id: 'preview', h: 1200 },
      row([icon('Crop', 'crop'), icon('Filters', 'filters'), icon('Adjust', 'adjust')]),
      row([btn('Cancel', 'cancel'), o.apply ?? btn('Apply', 'apply')]),
    ],
    { pkg: PHOTO },
  );

const H = 'holdout' as const;

export const HOLDOUT3: DriftCase[] = [
  // renamed-id
  {
    name: 'music: Play icon id renamed play_pause, desc kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=play',
    before: player({
      controls: [
        icon('Shuffle', 'shuffle'),
        icon('Previous', 'prev'),
        icon('Play', 'play', T),
        icon('Next', 'next'),
        icon('Repeat', 'repeat'),
      ],
    }),
    after: player({
      controls: [
        icon('Shuffle', 'shuffle'),
        icon('Previous', 'prev'),
        icon('Play', 'play_pause', T),
        icon('Next', 'next'),
        icon('Repeat', 'repeat'),
      ],
    }),
  },
  {
    name: 'travel: Email field id renamed guest_email, hint kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=email',
    before: guestDetails({
      fields: [
        field('First name', 'first_name'),
        field('Last name', 'last_name'),
        field('Email', 'email', T),
        field('Phone', 'phone'),
      ],
    }),
    after: guestDetails({
      fields: [
        field('First name', 'first_name'),
        field('Last name', 'last_name'),
        field('Email', 'guest_email', T),
        field('Phone', 'phone'),
      ],
    }),
  },
  {
    name: 'todo: Add task FAB id renamed fab_add, desc kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=add',
    before: tasks(['Buy milk', 'Pay rent'], { fab: icon('Add task', 'add', T) }),
    after: tasks(['Buy milk', 'Pay rent'], { fab: icon('Add task', 'fab_add', T) }),
  },
  {
    name: 'weather: both unit switches re-ided pref_*, Celsius label kept',
    category: 'renamed-id',
    split: H,
    selector: 'id=celsius',
    before: units([sw('Use Celsius', 'celsius', T), sw('Use 24-hour time', 'clock_24h')]),
    after: units([sw('Use Celsius', 'pref_units', T), sw('Use 24-hour time', 'pref_clock')]),
  },

  // reworded
  {
    name: 'rides: Request ride reworded Request a ride, id kept',
    category: 'reworded',
    split: H,
    selector: 'text="Request ride"',
    before: booking({ request: btn('Request ride', 'request_ride', T) }),
    after: booking({ request: btn('Request a ride', 'request_ride', T) }),
  },
  {
    name: 'podcasts: Mark as played reworded Mark played, id kept',
    category: 'reworded',
    split: H,
    selector: 'text="Mark as played"',
    before: episode({ mark: btn('Mark as played', 'mark_played', T) }),
    after: episode({ mark: btn('Mark played', 'mark_played', T) }),
  },
  {
    name: 'travel: Book reworded Reserve, id renamed reserve (hard: new word, new id)',
    category: 'reworded',
    split: H,
    selector: 'text="Book"',
    before: guestDetails({ book: btn('Book', 'book', T) }),
    after: guestDetails({ book: btn('Reserve', 'reserve', T) }),
  },
  {
    name: 'signup: Next reworded Continue, id renamed btn_continue (hard), Use email instead beside it',
    category: 'reworded',
    split: H,
    selector: 'text="Next"',
    before: phoneStep(btn('Next', 'next', T)),
    after: phoneStep(btn('Continue', 'btn_continue', T)),
  },
  {
    name: 'todo: Delete reworded Remove, id renamed remove_task (hard)',
    category: 'reworded',
    split: H,
    selector: 'text="Delete"',
    before: taskDetail([btn('Share', 'share_task'), btn('Delete', 'delete', T)]),
    after: taskDetail([btn('Share', 'share_task'), btn('Remove', 'remove_task', T)]),
  },

  // translated
  {
    name: 'weather: screen translated (es), Add city now Añadir ciudad, id kept',
    category: 'translated',
    split: H,
    selector: 'text="Add city"',
    before: cities(['Porto', 'Lisbon'], { add: btn('Add city', 'add_city', T) }),
    after: cities(['Porto', 'Lisbon'], { title: 'Ubicaciones', add: btn('Añadir ciudad', 'add_city', T) }),
  },
  {
    name: 'recipes: screen translated (de), Start cooking now Kochen starten and id renamed cook_mode; Auf die Einkaufsliste is the other button',
    category: 'translated',
    split: H,
    selector: 'text="Start cooking"',
    before: recipe({ cook: btn('Start cooking', 'start_cooking', T) }),
    after: recipe({ l: RECIPE_DE, cook: btn('Kochen starten', 'cook_mode', T) }),
  },
  {
    name: 'fitness: log form translated (es), Save workout now Guardar entrenamiento, id kept',
    category: 'translated',
    split: H,
    selector: 'text="Save workout"',
    before: logWorkout({ save: btn('Save workout', 'save', T) }),
    after: logWorkout({ l: LOG_ES, save: btn('Guardar entrenamiento', 'save', T) }),
  },

  // moved
  {
    name: 'music: Add to playlist text button became a toolbar icon (desc kept, id renamed)',
    category: 'moved',
    split: H,
    selector: 'text="Add to playlist"',
    before: player({ below: [btn('Add to playlist', 'add_to_playlist', T)] }),
    after: player({
      actions: [
        icon('Add to playlist', 'action_add_to_playlist', T),
        icon('Queue', 'queue'),
        icon('More options', 'overflow'),
      ],
      below: [],
    }),
  },
  {
    name: 'todo: Show completed switch became a checkbox',
    category: 'moved',
    split: H,
    selector: 'role=switch[name="Show completed"]',
    before: tasks(['Buy milk'], { toggle: sw('Show completed', 'show_completed', T) }),
    after: tasks(['Buy milk'], { toggle: check('Show completed', 'show_completed', T) }),
  },
  {
    name: 'fitness: Share to feed switch moved below Save into a Privacy section, id renamed post_to_feed; Show on map switch beside it',
    category: 'moved',
    split: H,
    selector: 'id=share',
    before: logWorkout({ share: sw('Share to feed', 'share', T) }),
    after: logWorkout({
      share: null,
      below: [txt('Privacy', 'section_privacy'), sw('Share to feed', 'post_to_feed', T), sw('Show on map', 'show_map')],
    }),
  },

  // reordered
  {
    name: 'podcasts: episodes now oldest first, Download desc reworded; the Sleep science row’s icon, not the one now in its old slot',
    category: 'reordered',
    split: H,
    selector: 'id=episode_row >> has-text="Sleep science" >> desc="Download"',
    before: show(['#44: Volcanoes', '#43: Deep sea', '#42: Sleep science', '#41: Ant colonies'], {
      key: '#42: Sleep science',
    }),
    after: show(['#41: Ant colonies', '#42: Sleep science', '#43: Deep sea', '#44: Volcanoes'], {
      key: '#42: Sleep science',
      desc: 'Download episode',
    }),
  },
  {
    name: 'todo: tasks sorted by due date, row id renamed task_item; Pay rent’s checkbox',
    category: 'reordered',
    split: H,
    selector: 'id=task_row >> has-text="Pay rent" >> role=checkbox',
    before: tasks(['Buy milk', 'Pay rent', 'Call the dentist'], { key: 'Pay rent' }),
    after: tasks(['Call the dentist', 'Buy milk', 'Pay rent'], { key: 'Pay rent', rowId: 'task_item' }),
  },
  {
    name: 'weather: cities reordered, row id renamed location_item; the Lisbon row',
    category: 'reordered',
    split: H,
    selector: 'id=city_row >> has-text="Lisbon"',
    before: cities(['Porto', 'Lisbon', 'Madrid'], { key: 'Lisbon' }),
    after: cities(['Madrid', 'Porto', 'Lisbon'], { key: 'Lisbon', rowId: 'location_item' }),
  },

  // look-alike
  {
    name: 'travel: name fields re-ided input_N and Last name now first; Last name, not First name in its old slot',
    category: 'look-alike',
    split: H,
    selector: 'id=last_name',
    before: guestDetails({
      fields: [
        field('First name', 'first_name'),
        field('Last name', 'last_name', T),
        field('Email', 'email'),
        field('Phone', 'phone'),
      ],
    }),
    after: guestDetails({
      fields: [
        field('Last name', 'input_1', T),
        field('First name', 'input_2'),
        field('Email', 'input_3'),
        field('Phone', 'input_4'),
      ],
    }),
  },
  {
    name: 'signup: Password and Confirm fields re-ided, hints reworded New / Repeat password; the first, not the confirm field',
    category: 'look-alike',
    split: H,
    selector: 'id=password',
    before: passwordStep([
      field('Password', 'password', { password: true, ...T }),
      field('Confirm password', 'password_confirm', { password: true }),
    ]),
    after: passwordStep([
      field('New password', 'input_password', { password: true, ...T }),
      field('Repeat password', 'input_password_confirm', { password: true }),
    ]),
  },
  {
    name: 'rides: destination id renamed dropoff, a new Add stop field now sits in its old slot; Where to?, not Add stop',
    category: 'look-alike',
    split: H,
    selector: 'id=destination',
    before: booking({ fields: [field('Pickup location', 'pickup'), field('Where to?', 'destination', T)] }),
    after: booking({
      fields: [field('Pickup location', 'pickup'), field('Add stop', 'stop_1'), field('Where to?', 'dropoff', T)],
    }),
  },

  // removed (no heal)
  {
    name: 'music: Add to playlist removed, Add to queue in its slot — different action, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Add to playlist"',
    before: player({ below: [btn('Add to playlist', 'add_to_playlist', T)] }),
    after: player({ below: [btn('Add to queue', 'add_to_queue')] }),
  },
  {
    name: 'todo: Delete removed, Archive in its slot — keeps the task, different action, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Delete"',
    before: taskDetail([btn('Share', 'share_task'), btn('Delete', 'delete', T)]),
    after: taskDetail([btn('Share', 'share_task'), btn('Archive', 'archive')]),
  },
  {
    name: 'photos: Save (overwrite) removed, Save as copy in its toolbar slot — different result, no heal',
    category: 'removed',
    split: H,
    selector: 'text="Save"',
    before: editor({
      actions: [btn('Save', 'save', { w: 360, h: 168, ...T }), btn('Export', 'export', { w: 240, h: 168 })],
    }),
    after: editor({
      actions: [btn('Save as copy', 'save_copy', { w: 360, h: 168 }), btn('Export', 'export', { w: 240, h: 168 })],
    }),
  },
  {
    name: 'weather: Use Celsius switch removed, Use 24-hour time switch slid up into its place — no heal',
    category: 'removed',
    split: H,
    selector: 'id=celsius',
    before: units([sw('Use Celsius', 'celsius', T), sw('Use 24-hour time', 'clock_24h')]),
    after: units([sw('Use 24-hour time', 'clock_24h')]),
  },

  // dialog (no heal)
  {
    name: 'rides: a surge-pricing dialog covers Request ride; its Request anyway is the dialog’s confirm, not the button — no heal',
    category: 'dialog',
    split: H,
    selector: 'id=request_ride',
    before: booking({ request: btn('Request ride', 'request_ride', T) }),
    after: screen('.BookingActivity', [], {
      pkg: RIDES,
      dialog: [
        txt('Fares are higher due to demand', 'alertTitle'),
        txt('Economy is now $22.30', 'message'),
        row([btn('Cancel', 'button2'), btn('Request anyway', 'button1')]),
      ],
    }),
  },
  {
    name: 'photos: an upgrade dialog covers Export; its Export in HD is a lower-resolution choice, not the button — no heal',
    category: 'dialog',
    split: H,
    selector: 'text="Export"',
    before: editor({
      actions: [btn('Save', 'save', { w: 240, h: 168 }), btn('Export', 'export', { w: 240, h: 168, ...T })],
    }),
    after: screen('.EditorActivity', [], {
      pkg: PHOTO,
      dialog: [
        txt('Export in full resolution with Pro', 'alertTitle'),
        txt('Free accounts export up to 1080p.', 'message'),
        row([btn('Export in HD', 'button2'), btn('Upgrade', 'button1')]),
      ],
    }),
  },

  // disabled / ambiguous
  {
    name: 'photos: Apply id renamed btn_apply and disabled until an edit is made; same button, heal (the action then reports it disabled)',
    category: 'disabled',
    split: H,
    selector: 'id=apply',
    before: editor({ apply: btn('Apply', 'apply', T) }),
    after: editor({ apply: btn('Apply', 'btn_apply', { enabled: false, ...T }) }),
  },
  {
    name: 'fitness: the one Start became two (Outdoor run, Indoor cycling), same id — which workout is unknowable, no heal',
    category: 'ambiguous',
    split: H,
    selector: 'text="Start"',
    before: today([card('Recommended workout', '30 min · 250 kcal', btn('Start', 'start', T))]),
    after: today([
      card('Outdoor run', '30 min · 310 kcal', btn('Start', 'start')),
      card('Indoor cycling', '25 min · 220 kcal', btn('Start', 'start')),
    ]),
  },
  {
    name: 'recipes: Add to shopping list split per ingredient group (sauce, pasta); neither is the whole list, no heal',
    category: 'ambiguous',
    split: H,
    selector: 'text="Add to shopping list"',
    before: recipe({
      body: [
        txt('Ingredients', 'section_title'),
        check('200 g spaghetti', 'ingredient'),
        check('1 lemon', 'ingredient'),
        check('50 g parmesan', 'ingredient'),
        btn('Add to shopping list', 'add_to_list', T),
      ],
    }),
    after: recipe({
      body: [
        txt('For the sauce', 'section_title'),
        check('1 lemon', 'ingredient'),
        check('50 g parmesan', 'ingredient'),
        btn('Add to shopping list', 'add_group'),
        txt('For the pasta', 'section_title'),
        check('200 g spaghetti', 'ingredient'),
        btn('Add to shopping list', 'add_group'),
      ],
    }),
  },
];
