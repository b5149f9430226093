import { column, switchView, text, type View } from './view.js';

/** A two-line preference row (title over summary), clickable as a whole like Android's. */
export function prefRow(title: string, summary: string | null, onClick: () => void, props: { id?: string } = {}): View {
  return column(
    [
      text(title, { id: 'title', height: 96 }),
      ...(summary ? [text(summary, { id: 'summary', height: 72, tone: 'muted' })] : []),
    ],
    {
      ...props,
      height: summary ? 192 : 144,
      onClick,
    },
  );
}

/** A switch preference: the whole row toggles (the switch itself is not separately clickable). */
export function switchRow(
  title: string,
  on: boolean,
  toggle: () => void,
  props: { id?: string; enabled?: boolean } = {},
): View {
  return switchView(title, on, toggle, { id: 'switch_widget', height: 168, ...props });
}

/** A simple Java-like stack trace, for crashes the apps simulate. */
export function javaStack(exception: string, frames: string[]): string {
  return [exception, ...frames.map((f) => `\tat ${f}`)].join('\n');
}
