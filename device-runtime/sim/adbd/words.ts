/**
 * Split a command line the way the device's sh does for the plain commands adb sends: words
 * separated by blanks, single quotes literal, double quotes and backslashes as in sh. adb joins
 * `adb shell a b c` with spaces and quotes arguments it builds itself (`pm install '/data/…'`).
 * Null when a quote is left open.
 */
export function splitWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && /["\\$`]/.test(line[j + 1] ?? '')) j++;
        s += line[j];
      }
      if (j >= line.length) return null;
      word = (word ?? '') + s;
      i = j;
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
