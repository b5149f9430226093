/**
 * Crashes and ANRs in an instance's log lines (`time pid level tag: message`, as `app.logcat()`
 * gives them): Android writes a crash as `AndroidRuntime: FATAL EXCEPTION: …` followed by the
 * stack, and an ANR as `ActivityManager: ANR in <package>` followed by its reason. Read from the
 * lines rather than asked of the device, so a runtime that only offers `sys_logcat` has them too.
 */

/** One crash or ANR: its kind, its first line (what the failure message quotes) and its block of lines. */
export interface CrashReport {
  kind: 'crash' | 'anr';
  headline: string;
  lines: string[];
}

const body = (line: string) => line.replace(/^\S+ \d+ \w \S+: /, '');
const tagOf = (line: string) => /^\S+ \d+ \w (\S+): /.exec(line)?.[1] ?? '';

/** Every crash and ANR in `lines`, oldest first, each with the lines of its report. */
export function crashesIn(lines: readonly string[]): CrashReport[] {
  const found: CrashReport[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = body(lines[i]!);
    const tag = tagOf(lines[i]!);
    let kind: CrashReport['kind'] | null = null;
    if (tag === 'AndroidRuntime' && text.startsWith('FATAL EXCEPTION')) kind = 'crash';
    else if (tag === 'ActivityManager' && text.startsWith('ANR in ')) kind = 'anr';
    if (!kind) continue;
    // The report is the lines that follow under the same tag (the stack, or the ANR's reason).
    let end = i + 1;
    while (end < lines.length && tagOf(lines[end]!) === tag && !body(lines[end]!).startsWith('FATAL EXCEPTION')) end++;
    const block = lines.slice(i, end);
    const first = block.map(body).find((l, n) => n > 0 && l.trim() !== '' && !/^Process: /.test(l)) ?? text;
    found.push({ kind, headline: kind === 'anr' ? text : first.trim(), lines: block });
    i = end - 1;
  }
  return found;
}
