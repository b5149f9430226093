import { verifySignature, type HostKey } from './auth.js';
import { readKeySource, type KeySource } from './key-files.js';

export interface AuthorizedKeysOptions {
  /** Where the trusted keys are: read again at each AUTH, as adbd reads adb_keys. */
  sources: KeySource[];
  /** Trust a key a host offers that no source lists (the prompt's "Always allow", tapped for anyone). */
  acceptNewKeys: boolean;
  /** A source that could not be read, or a line of one that is not a key. */
  log(event: string): void;
}

/**
 * The keys a device trusts — its adb_keys — and whether it trusts new ones. A host is let in when
 * it signs the token with one of them; a key offered in AUTH RSAPUBLICKEY is trusted only with
 * `acceptNewKeys`, and then until the daemon stops (it is written nowhere).
 */
export class AuthorizedKeys {
  private readonly accepted = new Map<string, HostKey>();

  constructor(private readonly opts: AuthorizedKeysOptions) {}

  get acceptNewKeys(): boolean {
    return this.opts.acceptNewKeys;
  }

  /** The keys trusted now: those the sources list, read now, and those accepted since the start. */
  trusted(): HostKey[] {
    const keys = new Map<string, HostKey>();
    for (const source of this.opts.sources) {
      const { keys: found, problems } = readKeySource(source);
      for (const p of problems) this.opts.log(`adb keys: ${p}`);
      for (const k of found) keys.set(k.id, k);
    }
    for (const k of this.accepted.values()) keys.set(k.id, k);
    return [...keys.values()];
  }

  /** The key, among the trusted ones, that made this signature of the token; null if none. */
  verify(token: Buffer, signature: Buffer): HostKey | null {
    return this.trusted().find((k) => verifySignature(k.key, token, signature)) ?? null;
  }

  /**
   * The host offered its public key: trusted from now on when the device accepts new keys. A
   * public key proves nothing (adbkey.pub is often readable by all): even a trusted one offered
   * here gets in only through `acceptNewKeys`, never through the list.
   */
  offer(key: HostKey): boolean {
    if (!this.opts.acceptNewKeys) return false;
    this.accepted.set(key.id, key);
    return true;
  }

  /** How many keys were accepted through `acceptNewKeys` since the start. */
  get acceptedCount(): number {
    return this.accepted.size;
  }
}
