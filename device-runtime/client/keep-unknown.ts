/**
 * `parsed` with the fields of `raw` that its schema does not know put back, at every depth.
 *
 * Why not `.passthrough()`/`.loose()` on the protocol's schemas: the same schemas validate what
 * the simulator answers (where an unknown field is a bug to catch) and derive the MCP JSON
 * Schemas (where `additionalProperties` would change); a client that tolerates a newer runtime
 * needs the tolerance only on the way in. zod strips unknown keys while it parses; this walks the
 * raw body alongside the parsed one and keeps what was stripped, so a trajectory records what
 * the runtime really sent. Known fields keep their parsed value (defaults, transforms).
 */
export function keepUnknown<T>(raw: unknown, parsed: T): T {
  if (Array.isArray(parsed)) {
    if (!Array.isArray(raw)) return parsed;
    return parsed.map((p, i) => keepUnknown(raw[i], p)) as T;
  }
  if (!isPlainObject(parsed) || !isPlainObject(raw)) return parsed;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!(k in parsed)) out[k] = v;
  for (const [k, v] of Object.entries(parsed)) out[k] = keepUnknown(raw[k], v);
  return out as T;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}
