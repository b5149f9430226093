import { constants, privateEncrypt, type KeyObject } from 'node:crypto';
import net from 'node:net';
import {
  A_AUTH,
  A_CNXN,
  A_VERSION,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  encodePacket,
  PacketReader,
  type Packet,
} from '../../device-runtime/sim/adbd/packet.js';

/**
 * A host side of adb's transport written in the test: it sends packets and waits for the next one
 * the daemon sends, with no adb installed — for what Google's adb never does (a bad header, a
 * packet before AUTH, a DATA chunk over the limit) and for a second host connection the test
 * watches packet by packet.
 */
export class RawHost {
  private readonly reader = new PacketReader();
  private readonly queue: Packet[] = [];
  private wake: (() => void) | null = null;
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => {
      this.queue.push(...this.reader.push(d));
      this.wake?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
    // The daemon dropping the connection mid-write is an outcome the tests look at, not a crash.
    socket.on('error', () => {});
  }

  static connect(port: number): Promise<RawHost> {
    return new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawHost(s)));
    });
  }

  send(command: number, arg0: number, arg1: number, data: Buffer | string = Buffer.alloc(0)): void {
    this.socket.write(encodePacket(command, arg0, arg1, data));
  }

  /** The next packet the daemon sent, or null when none came within `timeoutMs` or the connection closed. */
  async next(timeoutMs = 10_000): Promise<Packet | null> {
    const until = Date.now() + timeoutMs;
    while (this.queue.length === 0 && !this.closed && Date.now() < until) {
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 100);
      });
    }
    return this.queue.shift() ?? null;
  }

  /** Packets already received and not yet taken. */
  pending(): Packet[] {
    return [...this.queue];
  }

  /**
   * CNXN, then AUTH as adb answers it: the token signed with `key`, and when the device does not
   * know that key, the public key `encoded` offered. Resolves with the device's CNXN, or with the
   * packet that came instead (null when nothing came).
   */
  async handshake(key?: { privateKey: KeyObject; encoded: string }): Promise<Packet | null> {
    this.send(A_CNXN, A_VERSION, 256 * 1024, 'host::features=shell_v2\0');
    let p = await this.next();
    if (p?.command !== A_AUTH || p.arg0 !== AUTH_TOKEN || !key) return p;
    this.send(A_AUTH, AUTH_SIGNATURE, 0, signToken(key.privateKey, p.data));
    p = await this.next();
    if (p?.command !== A_AUTH || p.arg0 !== AUTH_TOKEN) return p;
    this.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, `${key.encoded} raw@host\0`);
    return this.next();
  }
}

/** Android's RSAPublicKey struct for a 2048-bit key, base64, as adb writes adbkey.pub. */
export function androidPublicKey(pub: KeyObject): string {
  const jwk = pub.export({ format: 'jwk' });
  const n = BigInt(`0x${Buffer.from(jwk.n!, 'base64url').toString('hex')}`);
  const e = Number(BigInt(`0x${Buffer.from(jwk.e!, 'base64url').toString('hex')}`));
  const words = 64;
  const b32 = 1n << 32n;
  const modInverse = (a: bigint, m: bigint) => {
    let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
    while (r1 !== 0n) {
      const q = r0 / r1;
      [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
    }
    return ((s0 % m) + m) % m;
  };
  const n0inv = (b32 - modInverse(n % b32, b32)) % b32;
  const rr = (1n << 4096n) % n;
  const le = (x: bigint) => {
    const b = Buffer.alloc(words * 4);
    for (let i = 0; i < words * 4; i++) b[i] = Number((x >> BigInt(8 * i)) & 0xffn);
    return b;
  };
  const head = Buffer.alloc(8);
  head.writeUInt32LE(words, 0);
  head.writeUInt32LE(Number(n0inv), 4);
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(e, 0);
  return Buffer.concat([head, le(n), le(rr), tail]).toString('base64');
}

const SHA1_DIGEST_INFO = Buffer.from('3021300906052b0e03021a05000414', 'hex');

/** The token signed as adb signs it: RSA PKCS#1 v1.5 over the token taken as a SHA-1 digest. */
export const signToken = (key: KeyObject, token: Buffer) =>
  privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA1_DIGEST_INFO, token]));
