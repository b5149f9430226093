import { createPublicKey, publicDecrypt, randomBytes, constants, type KeyObject } from 'node:crypto';

/**
 * The device's half of adb's authentication, as adbd does it (protocol.txt, AUTH): send a random
 * 20-byte token; the host answers with the token signed by its private key (RSA PKCS#1 v1.5 over
 * the token as a SHA-1 digest); a signature that a known key verifies authorizes the host. A host
 * none of whose keys is known sends its public key instead, which a user accepts on the phone's
 * "Allow USB debugging?" prompt — here `acceptNewKeys` decides, and an accepted key is remembered.
 */
export const TOKEN_SIZE = 20;

/** The DER DigestInfo prefix of a SHA-1 digest: what RSA_sign(NID_sha1) puts before the token. */
const SHA1_DIGEST_INFO = Buffer.from('3021300906052b0e03021a05000414', 'hex');

/** The modulus of Android's key format is 2048 bits: 64 little-endian 32-bit words. */
const MODULUS_WORDS = 64;
const KEY_BYTES = 4 + 4 + MODULUS_WORDS * 4 * 2 + 4;

export function newToken(): Buffer {
  return randomBytes(TOKEN_SIZE);
}

/** A host key as adb sends it: base64 of Android's RSAPublicKey struct, a space, `user@host`, NUL. */
export interface HostKey {
  key: KeyObject;
  /** The base64 text, as adb_keys stores it. */
  encoded: string;
  /** `user@host` after the key, or ''. */
  comment: string;
}

/**
 * Read Android's RSAPublicKey struct (libcrypto_utils android_pubkey): word count, n0inv, the
 * modulus and R² (little-endian), the exponent. Null when the text is not such a key.
 */
export function parseHostKey(data: Buffer): HostKey | null {
  const text = data.toString('utf8').replace(/\0+$/, '').trim();
  const [encoded = '', ...rest] = text.split(' ');
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length !== KEY_BYTES || raw.readUInt32LE(0) !== MODULUS_WORDS) return null;
  const modulus = Buffer.from(raw.subarray(8, 8 + MODULUS_WORDS * 4)).reverse();
  const exponent = raw.readUInt32LE(KEY_BYTES - 4);
  const e = Buffer.alloc(4);
  e.writeUInt32BE(exponent);
  try {
    const key = createPublicKey({
      key: {
        kty: 'RSA',
        n: modulus.toString('base64url'),
        e: e.subarray(e.findIndex((b) => b !== 0)).toString('base64url'),
      },
      format: 'jwk',
    });
    return { key, encoded, comment: rest.join(' ') };
  } catch {
    return null;
  }
}

/** Does `signature` sign `token` with `key`, the way adb's host signs it? */
export function verifySignature(key: KeyObject, token: Buffer, signature: Buffer): boolean {
  try {
    const plain = publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, signature);
    return plain.equals(Buffer.concat([SHA1_DIGEST_INFO, token]));
  } catch {
    return false;
  }
}

/** The keys a device trusts (its /data/misc/adb/adb_keys), and whether it trusts new ones. */
export class AuthorizedKeys {
  private readonly keys = new Map<string, HostKey>();

  constructor(readonly acceptNewKeys = true) {}

  /** The key, among the trusted ones, that made this signature of the token; null if none. */
  verify(token: Buffer, signature: Buffer): HostKey | null {
    for (const k of this.keys.values()) if (verifySignature(k.key, token, signature)) return k;
    return null;
  }

  /** The host offered its public key: trusted from now on when the device accepts new keys. */
  offer(key: HostKey): boolean {
    if (!this.acceptNewKeys) return false;
    this.keys.set(key.encoded, key);
    return true;
  }

  get size(): number {
    return this.keys.size;
  }
}
