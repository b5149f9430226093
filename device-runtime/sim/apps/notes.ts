import { defineActivity, defineApp, type ActivityContext } from './define-app.js';
import type { Note, NotesData, NotesPrefs } from './notes-data.js';
import { notesFunctions } from './notes-functions.js';
import { createdLine, noteDay, reminderToggle, scheduleReminder } from './notes-world.js';
import {
  button,
  column,
  editText,
  iconButton,
  row,
  switchView,
  text,
  toolbar,
  virtualList,
  type View,
} from './view.js';

type Ctx<S> = ActivityContext<NotesData, S>;

const SAMPLE_WORDS = ['Groceries', 'Meeting', 'Ideas', 'Trip', 'Books', 'Recipe', 'Workout', 'Budget', 'Gift', 'Call'];

function addSamples(ctx: Ctx<unknown>, count: number): void {
  ctx.update((d) => {
    for (let i = 0; i < count; i++) {
      const n = d.nextId++;
      d.notes.push({ id: n, title: `${SAMPLE_WORDS[n % SAMPLE_WORDS.length]} ${n}`, body: `Sample note number ${n}` });
    }
  });
}

function confirmDelete(ctx: Ctx<unknown>, note: Note, after?: () => void): void {
  ctx.showDialog({
    title: 'Delete this note?',
    message: `"${note.title}" will be deleted.`,
    cancelable: true,
    buttons: [
      { label: 'Cancel' },
      {
        label: 'Delete',
        onClick: () => {
          ctx.update((d) => void (d.notes = d.notes.filter((n) => n.id !== note.id)));
          ctx.snackbar('Note deleted');
          after?.();
        },
      },
    ],
  });
}

/** A note row: tap opens it, long-press opens the note menu (Edit / Copy text / Delete). */
function noteRow(ctx: Ctx<unknown>, note: Note): View {
  const snippet = text(note.body.split('\n')[0] ?? '', { id: 'note_snippet', height: 72, tone: 'muted' });
  return column(
    [
      text(note.title, { id: 'note_title', height: 96 }),
      note.created === undefined ? snippet : row([snippet, ...noteDay(ctx.world, note.created)], { height: 72 }),
    ],
    {
      id: 'note_row',
      onClick: () => ctx.start('.EditNoteActivity', { id: note.id }),
      onLongClick: () =>
        ctx.showDialog({
          title: note.title,
          cancelable: true,
          items: [
            { label: 'Edit', onClick: () => ctx.start('.EditNoteActivity', { id: note.id }) },
            {
              label: 'Copy text',
              onClick: () => (ctx.setClipboard(`${note.title}\n${note.body}`), ctx.toast('Copied to clipboard')),
            },
            { label: 'Delete', onClick: () => confirmDelete(ctx, note) },
          ],
        }),
    },
  );
}

function notesList(ctx: Ctx<unknown>, notes: Note[], id: string): View {
  return virtualList({ count: notes.length, itemHeight: 168, render: (i) => noteRow(ctx, notes[i]!) }, { id });
}

/**
 * What Notes 2.0 changed in its UI (notes-v2.apk, versionCode 2): resource ids renamed and the
 * New note button reworded; on the Settings screen the sync switch re-ided, its row moved below
 * the backup one, and spell checking gone (always on) — the drift selector healing
 * (framework/heal) is tested against.
 */
interface NotesUi {
  ids: { new_note: string; title: string; body: string; save: string };
  newNote: string;
  /** The Settings screen's switches, top to bottom: the preference and the switch's id. */
  settings: Array<{ pref: keyof NotesPrefs; id: string }>;
}
const V1: NotesUi = {
  ids: { new_note: 'new_note', title: 'title', body: 'body', save: 'save' },
  newNote: 'New note',
  settings: [
    { pref: 'sync', id: 'toggle_sync' },
    { pref: 'backup', id: 'toggle_backup' },
    { pref: 'spellcheck', id: 'toggle_spellcheck' },
  ],
};
const V2: NotesUi = {
  ids: { new_note: 'create_note', title: 'note_title', body: 'note_body', save: 'save_note' },
  newNote: 'Create note',
  settings: [
    { pref: 'backup', id: 'toggle_backup' },
    { pref: 'sync', id: 'sync_switch' },
  ],
};

const PREFS: Record<keyof NotesPrefs, { title: string; on: string; off: string }> = {
  sync: { title: 'Sync notes', on: 'Notes sync across your devices', off: 'Notes stay on this device' },
  backup: { title: 'Back up to cloud', on: 'Backed up every night', off: 'Not backed up' },
  spellcheck: { title: 'Check spelling', on: 'Misspelled words are underlined', off: 'Spelling is not checked' },
};

/** A settings row as most apps lay it out: title and summary, the switch (no text of its own) at the end. */
function prefSwitch(ctx: Ctx<unknown>, pref: keyof NotesPrefs, id: string): View {
  const on = ctx.data.prefs?.[pref] ?? false;
  const toggle = () =>
    ctx.update((d) => void (d.prefs = { sync: false, backup: false, spellcheck: false, ...d.prefs, [pref]: !on }));
  return row(
    [
      column([
        text(PREFS[pref].title, { id: `${pref}_title`, height: 96 }),
        text(on ? PREFS[pref].on : PREFS[pref].off, { id: `${pref}_summary`, height: 72, tone: 'muted' }),
      ]),
      switchView('', on, toggle, { id, width: 200 }),
    ],
    { height: 168 },
  );
}

/**
 * Notes (`com.nestwright.notes`): a virtualized list of notes, create / edit / delete with a
 * confirmation dialog, search, a long-press menu, and hundreds of sample notes (overflow menu
 * "Load sample notes", or launch extras `sample_notes: N`). Data persists per instance.
 */
export const notesApp = notesModel(V1, 1, '1.0');
/** Notes 2.0 (`notes-v2.apk`): the same app with renamed ids and "Create note" for "New note". */
export const notesAppV2 = notesModel(V2, 2, '2.0');

function notesModel(ui: NotesUi, versionCode: number, versionName: string) {
  return defineApp<NotesData>({
    package: 'com.nestwright.notes',
    label: 'Notes',
    launcher: '.MainActivity',
    versionCode,
    versionName,
    initialData: () => ({ notes: [], nextId: 1, prefs: { sync: false, backup: false, spellcheck: false } }),
    deepLinks: [{ scheme: 'nwnotes', pattern: 'note/:id', activity: '.EditNoteActivity' }],
    functions: notesFunctions,
    activities: {
      '.MainActivity': defineActivity<NotesData, { seeded: boolean; searching: boolean; query: string }>({
        initialState: () => ({ seeded: false, searching: false, query: '' }),
        // Back first closes the search, as a toolbar SearchView does.
        onBack: (ctx) => (ctx.state.searching ? (ctx.set({ searching: false, query: '' }), true) : false),
        render: (ctx) => {
          const extra = Number(ctx.extras.sample_notes ?? 0);
          if (extra > 0 && !ctx.state.seeded) {
            ctx.state.seeded = true;
            addSamples(ctx, Math.min(extra, 5000));
          }
          if (ctx.state.searching) {
            const q = ctx.state.query.trim().toLowerCase();
            const hits = q
              ? ctx.data.notes.filter((n) => n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q))
              : ctx.data.notes;
            return column([
              row(
                [
                  iconButton('Collapse', () => ctx.set({ searching: false, query: '' }), { id: 'search_close' }),
                  editText(ctx.state.query, (query) => ctx.set({ query }), {
                    id: 'search_field',
                    hint: 'Search notes',
                  }),
                ],
                { height: 168 },
              ),
              hits.length === 0 ? text('No matching notes', { id: 'empty' }) : notesList(ctx, hits, 'results'),
            ]);
          }
          return column([
            toolbar('Notes', [
              iconButton('Search notes', () => ctx.set({ searching: true }), { id: 'search' }),
              iconButton(
                'More options',
                () =>
                  ctx.showDialog({
                    cancelable: true,
                    items: [
                      { label: 'Load sample notes', onClick: () => addSamples(ctx, 300) },
                      { label: 'Delete all notes', onClick: () => ctx.update((d) => void (d.notes = [])) },
                    ],
                  }),
                { id: 'overflow' },
              ),
            ]),
            ctx.data.notes.length === 0
              ? text('No notes yet', { id: 'empty' })
              : notesList(ctx, ctx.data.notes, 'notes'),
            button(ui.newNote, () => ctx.start('.EditNoteActivity'), { id: ui.ids.new_note }),
          ]);
        },
      }),
      '.EditNoteActivity': defineActivity<
        NotesData,
        { id: number | null; title: string; body: string; remind: boolean }
      >({
        initialState: (extras, data) => {
          const id = extras.id === undefined ? null : Number(extras.id);
          const note = data.notes.find((n) => n.id === id);
          return { id: note ? note.id : null, title: note?.title ?? '', body: note?.body ?? '', remind: false };
        },
        render: (ctx) => {
          const editing = ctx.data.notes.find((n) => n.id === ctx.state.id);
          return column([
            toolbar(
              editing ? 'Edit note' : 'New note',
              editing
                ? [iconButton('Delete note', () => confirmDelete(ctx, editing, () => ctx.finish()), { id: 'delete' })]
                : [],
            ),
            editText(ctx.state.title, (title) => ctx.set({ title }), { id: ui.ids.title, hint: 'Title' }),
            editText(ctx.state.body, (body) => ctx.set({ body }), { id: ui.ids.body, hint: 'Note', height: 480 }),
            ...createdLine(ctx.world, editing?.created),
            reminderToggle(ctx.state.remind, () => ctx.set({ remind: !ctx.state.remind })),
            button(
              'Save',
              () => {
                const title = ctx.state.title.trim();
                if (!title) return ctx.toast('Title is empty');
                let id = ctx.state.id;
                ctx.update((d) => {
                  const existing = d.notes.find((n) => n.id === ctx.state.id);
                  if (existing) Object.assign(existing, { title, body: ctx.state.body });
                  else d.notes.push({ id: (id = d.nextId++), title, body: ctx.state.body, created: ctx.world.now() });
                });
                if (ctx.state.remind && id !== null) scheduleReminder(ctx.world, { id, title });
                ctx.log('I', 'Notes', `saved note "${title}"`);
                ctx.finish();
              },
              { id: ui.ids.save },
            ),
          ]);
        },
      }),
      '.SettingsActivity': defineActivity<NotesData, Record<string, never>>({
        initialState: () => ({}),
        render: (ctx) =>
          column([
            toolbar('Settings', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
            ...ui.settings.map((s) => prefSwitch(ctx, s.pref, s.id)),
          ]),
      }),
    },
  });
}
