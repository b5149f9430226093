/**
 * Secrets are passed by reference: `secret(process.env.PW)` makes a value whose text the
 * framework types into a field, while prompts, caches, trajectories and reports only ever see its
 * placeholder. The value lives in a module-private WeakMap, so JSON.stringify, util.inspect and
 * string templates of a Secret show `[secret]`, never the value.
 */
const values = new WeakMap<Secret, string>();
/** Every secret value made in this process, longest first, for {@link redact}. */
const known = new Set<string>();

/** A value typed into fields but shown as `[secret]` everywhere else; made by {@link secret}. */
export class Secret {
  /** @internal Use `secret(value)`. */
  constructor(value: string) {
    values.set(this, value);
    if (value.length > 0) known.add(value);
  }
  /** Always `[secret]`, so a template string cannot leak the value. */
  toString(): string {
    return '[secret]';
  }
  /** Always `[secret]`, so JSON (trajectories, reports, caches) cannot leak the value. */
  toJSON(): string {
    return '[secret]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'Secret([secret])';
  }
}

/** A secret parameter for `app.ai.act(…, { params: { password: secret(process.env.PW) } })`. */
export function secret(value: string | undefined): Secret {
  if (typeof value !== 'string') {
    throw new TypeError(
      'secret: expected a string (is the environment variable set?), got ' +
        (value === undefined ? 'undefined' : typeof value),
    );
  }
  return new Secret(value);
}

export function isSecret(v: unknown): v is Secret {
  return v instanceof Secret;
}

/** The value: only for the one place that types it into a field. */
export function revealSecret(s: Secret): string {
  return values.get(s)!;
}

/** `text` with every known secret value replaced by `***` (a last line of defence for texts we print). */
export function redact(text: string): string {
  let out = text;
  for (const v of [...known].sort((a, b) => b.length - a.length)) if (out.includes(v)) out = out.split(v).join('***');
  return out;
}
