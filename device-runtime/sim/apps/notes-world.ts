import type { AppWorld } from '../world/app-world.js';
import { checkbox, text, type View } from './view.js';

/** How long after saving a note's reminder goes off. */
export const REMINDER_MS = 3_600_000;

/**
 * What Notes takes from the instance's world (docs/app-world.md): a note's creation time from the
 * instance's clock, shown in its time zone ("Created 09:00" in the editor; "Today", "Yesterday" or
 * the date on its row), and a reminder an hour after saving, an alarm that posts a notification
 * whose tap opens the note.
 */

/** "Today", "Yesterday" or the date of the note, for its row; nothing for a note saved before notes had a time. */
export function noteDay(world: AppWorld, created: number | undefined): View[] {
  return created === undefined
    ? []
    : [text(world.day(created), { id: 'note_date', width: 360, height: 72, tone: 'muted' })];
}

/** "Created HH:mm" in the editor of a saved note. */
export function createdLine(world: AppWorld, created: number | undefined): View[] {
  return created === undefined ? [] : [text(`Created ${world.clockTime(created)}`, { id: 'created', tone: 'muted' })];
}

export function reminderToggle(on: boolean, toggle: () => void): View {
  return checkbox('Remind me in 1 hour', on, toggle, { id: 'remind' });
}

/** Set the note's reminder: a notification "Reminder" with its title, an hour from the instance's now; tapping it opens the note. */
export function scheduleReminder(world: AppWorld, note: { id: number; title: string }): void {
  world.setAlarm(world.now() + REMINDER_MS, {
    title: 'Reminder',
    text: note.title,
    channel: 'reminders',
    tap: { activity: '.EditNoteActivity', extras: { id: note.id } },
  });
}
