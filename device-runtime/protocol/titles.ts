const MAX_VALUE = 60;

function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') {
    const s = value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE - 1)}…` : value;
    return JSON.stringify(s);
  }
  if (Array.isArray(value)) return value.map(show).join(', ');
  return JSON.stringify(value);
}

/**
 * Fill a tool's title template (`'Tap {target}'`) from its arguments. `{target}` names whatever
 * identifies the target (node, text, bounds or point); `{condition}` whatever a wait waits for.
 * A caller that knows better passes preformatted values in `verbatim` (a locator passes its
 * selector as `target`: `Tap text='New note'`), inserted as they are, without quoting.
 */
export function formatTitle(
  template: string,
  args: Record<string, unknown>,
  verbatim: Record<string, string> = {},
): string {
  return template
    .replace(/\{(\w+)\}/g, (_, key: string) => {
      if (key in verbatim) return verbatim[key]!;
      if (key in args && args[key] !== undefined) return show(args[key]);
      if (key === 'target') return show(args.text ?? args.node_id ?? args.bounds ?? args.point);
      if (key === 'condition') {
        const parts = ['text', 'package', 'activity', 'idle']
          .filter((k) => args[k] !== undefined)
          .map((k) => `${k} ${show(args[k])}`);
        return parts.join(', ');
      }
      return '';
    })
    .replace(/\s+/g, ' ')
    .trim();
}
