/**
 * The JAR manifest format (META-INF/MANIFEST.MF and the `.SF` signature files): `Name: value` lines
 * (CRLF, LF or CR), 72-byte lines continued by a leading space, sections separated by blank lines;
 * the main section first, then one section per entry starting with `Name:`. We keep each section's
 * byte range, because a `.SF` file signs the manifest's sections as raw bytes.
 */
import { ApkError } from './apk-error.js';

export type JarSection = {
  /** Attribute names lower-cased (names are case-insensitive), values as written. */
  attrs: Map<string, string>;
  /** [start, end) in the file, end just after the blank line that closes the section. */
  start: number;
  end: number;
};
export type JarManifest = { main: JarSection; entries: Map<string, JarSection> };

/** Digest attributes, strongest first, with node:crypto's name for the hash (Android's order). */
export const JAR_DIGESTS: ReadonlyArray<[string, string]> = [
  ['sha-512', 'sha512'],
  ['sha-384', 'sha384'],
  ['sha-256', 'sha256'],
  ['sha1', 'sha1'],
  ['sha-1', 'sha1'],
];

export function parseJarManifest(buf: Buffer, file: string): JarManifest {
  const text = buf.toString('latin1'); // one char per byte, so string offsets are byte offsets
  const sections: JarSection[] = [];
  let cur: JarSection = { attrs: new Map(), start: 0, end: 0 };
  let lastName: string | null = null;
  let p = 0;
  while (p < text.length) {
    let eol = p;
    while (eol < text.length && text[eol] !== '\r' && text[eol] !== '\n') eol++;
    const line = text.slice(p, eol);
    let next = eol;
    if (text[next] === '\r') next++;
    if (text[next] === '\n' && (next === eol || text[eol] === '\r')) next++;
    if (line === '') {
      cur.end = next;
      if (cur.attrs.size > 0 || sections.length === 0) sections.push(cur);
      cur = { attrs: new Map(), start: next, end: next };
      lastName = null;
    } else if (line.startsWith(' ')) {
      if (lastName === null) throw new ApkError(`${file}: continuation line with no attribute before it`);
      cur.attrs.set(lastName, cur.attrs.get(lastName)! + line.slice(1));
    } else {
      const colon = line.indexOf(': ');
      if (colon <= 0) throw new ApkError(`${file}: line "${line.slice(0, 40)}" is not "Name: value"`);
      lastName = line.slice(0, colon).toLowerCase();
      cur.attrs.set(lastName, line.slice(colon + 2));
    }
    p = next;
  }
  cur.end = text.length;
  if (cur.attrs.size > 0 || sections.length === 0) sections.push(cur);
  const [main, ...rest] = sections;
  const entries = new Map<string, JarSection>();
  for (const s of rest) {
    const name = s.attrs.get('name');
    if (name === undefined) throw new ApkError(`${file}: a section at byte ${s.start} has no Name attribute`);
    // Two sections for one entry let a verifier and a loader disagree; Android refuses them.
    if (entries.has(name)) throw new ApkError(`${file}: two sections for ${name}`);
    entries.set(name, s);
  }
  return { main: main!, entries };
}

/** The strongest `<alg><suffix>` attribute of a section, as [node hash name, base64 value]. */
export function strongestDigest(attrs: Map<string, string>, suffix: string): [string, string] | null {
  for (const [attr, hash] of JAR_DIGESTS) {
    const v = attrs.get(`${attr}${suffix}`);
    if (v !== undefined) return [hash, v.trim()];
  }
  return null;
}
