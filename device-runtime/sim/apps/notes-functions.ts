import { z } from 'zod';
import { AppFunctionError, defineFunction } from './define-app.js';
import type { Note, NotesData } from './notes-data.js';

/**
 * The functions Notes declares for agents (AppFunctions): create, find and delete a note. They
 * change the same data the screens show, so the list has the new note the moment one returns;
 * deleting is marked dangerous (an approval first, as deleting through the UI asks "Delete this note?").
 */
const fn = defineFunction<NotesData>();

const NoteResult = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  created: z.number().nullable().describe('Epoch ms, the instance wall clock; null for sample notes'),
});
const shown = (n: Note) => ({ id: n.id, title: n.title, body: n.body, created: n.created ?? null });

export const notesFunctions = {
  createNote: fn({
    description: 'Create a note with a title and an optional body; returns the saved note.',
    params: z.strictObject({
      title: z.string().trim().min(1, 'a note needs a title').describe('The title, as the list shows it'),
      body: z.string().default('').describe('The text of the note'),
    }),
    result: NoteResult,
    run: ({ title, body }, ctx) => {
      let note!: Note;
      ctx.update((d) => {
        note = { id: d.nextId++, title, body, created: ctx.world.now() };
        d.notes.push(note);
      });
      ctx.log('Notes', `createNote "${title}" (AppFunction)`);
      return shown(note);
    },
  }),
  findNotes: fn({
    description: 'Find notes whose title or body contains the query (case-insensitive); newest first.',
    params: z.strictObject({
      query: z.string().describe('Words to look for; empty finds every note'),
      limit: z.number().int().min(1).max(100).default(20).describe('At most this many notes'),
    }),
    result: z.object({ notes: z.array(NoteResult), total: z.number().int().describe('Matches before the limit') }),
    run: ({ query, limit }, ctx) => {
      const q = query.trim().toLowerCase();
      const hits = ctx.data.notes
        .filter((n) => !q || n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q))
        .reverse();
      return { notes: hits.slice(0, limit).map(shown), total: hits.length };
    },
  }),
  deleteNote: fn({
    description: 'Delete the note with this id (findNotes gives ids). Needs approval: it cannot be undone.',
    dangerous: true,
    params: z.strictObject({ id: z.number().int().positive().describe('The id of the note') }),
    result: z.object({ deleted: NoteResult }),
    run: ({ id }, ctx) => {
      const note = ctx.data.notes.find((n) => n.id === id);
      if (!note) {
        const ids = ctx.data.notes.map((n) => n.id);
        throw new AppFunctionError(
          'id',
          `no note ${id}; ${ids.length ? `the notes' ids are ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? '…' : ''}` : 'there are no notes'}`,
        );
      }
      ctx.update((d) => void (d.notes = d.notes.filter((n) => n.id !== id)));
      ctx.log('Notes', `deleteNote ${id} (AppFunction)`);
      return { deleted: shown(note) };
    },
  }),
};
