import { defineActivity, defineApp } from './define-app.js';
import { button, column, editText, iconButton, list, text, toolbar } from '../ui/view.js';

interface Note {
  id: number;
  title: string;
}
interface NotesData {
  notes: Note[];
  nextId: number;
}

/** Notes (`com.nestwright.notes`): a list of notes, "New note", a title field and Save. */
export const notesApp = defineApp<NotesData>({
  package: 'com.nestwright.notes',
  label: 'Notes',
  launcher: '.MainActivity',
  initialData: () => ({ notes: [], nextId: 1 }),
  activities: {
    '.MainActivity': defineActivity<NotesData, Record<string, never>>({
      initialState: () => ({}),
      render: (ctx) =>
        column([
          toolbar('Notes', [iconButton('Search notes', () => ctx.toast('Search is not available yet'), { id: 'search' })]),
          ctx.data.notes.length === 0
            ? text('No notes yet', { id: 'empty' })
            : list(
                ctx.data.notes.map((n) => text(n.title, { id: 'note_title' })),
                { id: 'notes' },
              ),
          button('New note', () => ctx.start('.EditNoteActivity'), { id: 'new_note' }),
        ]),
    }),
    '.EditNoteActivity': defineActivity<NotesData, { title: string }>({
      initialState: () => ({ title: '' }),
      render: (ctx) =>
        column([
          toolbar('New note'),
          editText(ctx.state.title, (title) => ctx.set({ title }), { id: 'title', hint: 'Title' }),
          button(
            'Save',
            () => {
              const title = ctx.state.title.trim();
              if (!title) return ctx.toast('Title is empty');
              ctx.update((d) => {
                d.notes.push({ id: d.nextId++, title });
              });
              ctx.log('I', 'Notes', `saved note "${title}"`);
              ctx.finish();
            },
            { id: 'save' },
          ),
        ]),
    }),
  },
});
