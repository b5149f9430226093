import { PROTOCOL_VERSION } from '../protocol/index.js';

/**
 * Whether a runtime speaking protocol `theirs` can serve this client (`ours`, by default the
 * package's {@link PROTOCOL_VERSION}): the same major version and a minor one at least ours. A
 * newer minor version only adds (optional fields, tools, extensions), which the client ignores
 * or keeps; an older minor one may lack what this client relies on; another major version
 * changed something incompatibly. Returns null when it can, else why not (both versions named).
 */
export function protocolMismatch(theirs: string, ours: string = PROTOCOL_VERSION): string | null {
  const t = parseVersion(theirs);
  const o = parseVersion(ours)!;
  if (!t)
    return `the runtime reports protocol version "${theirs}", which is not MAJOR.MINOR; this client speaks ${ours}`;
  if (t.major !== o.major)
    return `the runtime speaks protocol ${theirs}, another major version than this client's ${ours}`;
  if (t.minor < o.minor) return `the runtime speaks protocol ${theirs}, older than this client's ${ours}`;
  return null;
}

function parseVersion(v: string): { major: number; minor: number } | null {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : null;
}
