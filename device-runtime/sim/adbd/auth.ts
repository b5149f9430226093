import { createPublicKey, publicDecrypt, randomBytes, constants, type KeyObject } from 'node:crypto';

/**
 * The device's half of adb's authentication, as adbd does it (protocol.txt, AUTH): send a random
 * 20-byte token; the host answers with the token signed by its private key (RSA PKCS#1 v1.5 over
 * the token as a SHA-1 digest); a signature that a known key verifies authorizes the host. A host
 * none of whose keys is known sends its public key instead, which a user accepts on the phone's
 * "Allow USB debugging?" prompt; until then adb lists the device `unauthorized`. The simulator
 * has no one to tap the prompt: `acceptNewKeys` decides, and it is off unless asked for.
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

/** A host key: what adb sends in AUTH RSAPUBLICKEY, or a line of adb_keys. */
export interface HostKey {
  key: KeyObject;
  /** The modulus (base64url): the key's identity, however it was written. */
  id: string;
  /** `user@host` after the key, or where it was read; '' when it has no name. */
  comment: string;
}

/** The key's identity: its RSA modulus. */
export function keyId(key: KeyObject): string {
  return key.export({ format: 'jwk' }).n ?? '';
}

/**
 * Read Android's RSAPublicKey struct (libcrypto_utils android_pubkey) — word count, n0inv, the
 * modulus and R² (little-endian), the exponent — as base64 followed by ` user@host`, the way
 * adbkey.pub and adb_keys hold it and AUTH RSAPUBLICKEY carries it. Null when it is not such a key.
 */
export function parseHostKey(data: Buffer | string): HostKey | null {
  const text = (typeof data === 'string' ? data : data.toString('utf8')).replace(/\0+$/, '').trim();
  const [encoded = '', ...rest] = text.split(/\s+/);
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length !== KEY_BYTES || raw.readUInt32LE(0) !== MODULUS_WORDS) return null;
  const modulus = Buffer.from(raw.subarray(8, 8 + MODULUS_WORDS * 4)).reverse();
  const exponent = raw.readUInt32LE(KEY_BYTES - 4);
  const e = Buffer.alloc(4);
  e.writeUInt32BE(exponent);
  try {
    const n = modulus.toString('base64url');
    const key = createPublicKey({
      key: { kty: 'RSA', n, e: e.subarray(e.findIndex((b) => b !== 0)).toString('base64url') },
      format: 'jwk',
    });
    return { key, id: n, comment: rest.join(' ') };
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
