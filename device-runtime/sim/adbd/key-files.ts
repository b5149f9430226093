import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { keyId, parseHostKey, type HostKey } from './auth.js';

/**
 * Where a device's trusted keys come from. `adb_keys`: one public key per line, as adbkey.pub
 * holds it (what adbd reads from /adb_keys and /data/misc/adb/adb_keys); `vendor`: an entry of
 * $ADB_VENDOR_KEYS — a private key adb signs with (PEM), or a directory of `*.adb_key` ones —
 * whose public half is trusted.
 */
export interface KeySource {
  path: string;
  kind: 'adb_keys' | 'vendor';
  /** Its absence is a problem (a file named on the command line); a user's default key may not exist yet. */
  required?: boolean;
}

/**
 * The keys this user's adb signs with — what a phone on which this user tapped "Always allow"
 * trusts: $ANDROID_USER_HOME/adbkey.pub (newer adb keeps it there), ~/.android/adbkey.pub, and
 * the $ADB_VENDOR_KEYS entries (colon-separated files or directories, as adb reads them).
 */
export function userKeySources(env: NodeJS.ProcessEnv = process.env): KeySource[] {
  const sources: KeySource[] = [];
  if (env.ANDROID_USER_HOME) sources.push({ path: join(env.ANDROID_USER_HOME, 'adbkey.pub'), kind: 'adb_keys' });
  sources.push({ path: join(env.HOME || homedir(), '.android', 'adbkey.pub'), kind: 'adb_keys' });
  for (const p of (env.ADB_VENDOR_KEYS ?? '').split(':')) if (p) sources.push({ path: p, kind: 'vendor' });
  return sources;
}

export interface KeysRead {
  keys: HostKey[];
  /** What could not be used, each naming its file (and line): such a source or line is skipped. */
  problems: string[];
}

/** What a key source holds now. Cheap (a few small files): read at each AUTH, as adbd reads adb_keys. */
export function readKeySource(source: KeySource): KeysRead {
  let st: Stats;
  try {
    st = statSync(source.path);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing && !source.required) return { keys: [], problems: [] };
    return { keys: [], problems: [`${source.path}: ${missing ? 'no such file' : (e as Error).message}`] };
  }
  if (!st.isDirectory()) return readKeyFile(source.path, source.kind, st);
  if (source.kind !== 'vendor') return { keys: [], problems: [`${source.path}: a directory, not an adb_keys file`] };
  const out: KeysRead = { keys: [], problems: [] };
  let names: string[] = [];
  try {
    names = readdirSync(source.path).filter((n) => n.endsWith('.adb_key'));
  } catch (e) {
    out.problems.push(`${source.path}: ${(e as Error).message}`);
  }
  for (const name of names.sort()) {
    const r = readKeySource({ path: join(source.path, name), kind: 'vendor' });
    out.keys.push(...r.keys);
    out.problems.push(...r.problems);
  }
  return out;
}

/**
 * A key file another user can change decides who gets in as this user: like sshd's
 * StrictModes, such a file is not read. Its owner must be this user (or root).
 */
function unsafe(path: string, st: Stats): string | null {
  if (st.mode & 0o022)
    return `${path}: writable by other users (mode ${(st.mode & 0o777).toString(8)}), so not trusted; \`chmod go-w ${path}\``;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0)
    return `${path}: owned by another user (uid ${st.uid}), so not trusted`;
  return null;
}

function readKeyFile(path: string, kind: KeySource['kind'], st: Stats): KeysRead {
  const bad = unsafe(path, st);
  if (bad) return { keys: [], problems: [bad] };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { keys: [], problems: [`${path}: ${(e as Error).message}`] };
  }
  if (kind === 'vendor') {
    try {
      const key = createPublicKey(createPrivateKey(text));
      return { keys: [{ key, id: keyId(key), comment: basename(path) }], problems: [] };
    } catch {
      return {
        keys: [],
        problems: [`${path}: not a PEM private key (an $ADB_VENDOR_KEYS entry is one adb signs with)`],
      };
    }
  }
  const out: KeysRead = { keys: [], problems: [] };
  text.split('\n').forEach((line, i) => {
    if (!line.trim() || line.trimStart().startsWith('#')) return;
    const key = parseHostKey(line);
    if (key) out.keys.push(key);
    else
      out.problems.push(
        `${path}:${i + 1}: not an adb public key (expected a line of adbkey.pub: base64, a space, user@host)`,
      );
  });
  return out;
}

/**
 * Check a key file named on the command line before the daemon starts: it must exist, be safe
 * (see `unsafe`) and hold only keys. Returns how many; throws with the file (and line) at fault.
 */
export function checkKeyFile(path: string): number {
  const { keys, problems } = readKeySource({ path, kind: 'adb_keys', required: true });
  if (problems.length) throw new Error(problems[0]);
  return keys.length;
}
