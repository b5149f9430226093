import { test, expect } from '@playwright/test';
import { constants, generateKeyPairSync, privateEncrypt, type KeyObject } from 'node:crypto';
import net from 'node:net';
import { startAdbd, type RunningAdbd } from '../../device-runtime/sim/adbd/index.js';
import { parseHostKey, verifySignature } from '../../device-runtime/sim/adbd/auth.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  encodePacket,
  PacketReader,
  type Packet,
} from '../../device-runtime/sim/adbd/packet.js';

/**
 * The daemon at the packet level, with no adb installed: what a host that misbehaves gets
 * (packets before AUTH, a bad header, an unknown service, a wrong signature), and the signature
 * check against a key made here the way adb makes its own (Android's RSAPublicKey format).
 */

/** A host side that sends packets and waits for the next one the daemon sends. */
class Host {
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
  }

  static connect(port: number): Promise<Host> {
    return new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new Host(s)));
    });
  }

  send(command: number, arg0: number, arg1: number, data: Buffer | string = Buffer.alloc(0)): void {
    this.socket.write(encodePacket(command, arg0, arg1, data));
  }

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
}

/** Android's RSAPublicKey struct for a 2048-bit key, base64, as adb writes adbkey.pub. */
function androidPublicKey(pub: KeyObject): string {
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
const sign = (key: KeyObject, token: Buffer) =>
  privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA1_DIGEST_INFO, token]));

let adbd: RunningAdbd | null = null;
test.afterEach(async () => {
  await adbd?.close();
  adbd = null;
});

test('AUTH: a key offered is trusted; the next connection signs the token with it and is let in; a wrong signature gets a new token', async () => {
  adbd = await startAdbd({});
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const encoded = androidPublicKey(publicKey);
  expect(parseHostKey(Buffer.from(`${encoded} test@host\0`))).not.toBeNull();

  const a = await Host.connect(adbd.port);
  a.send(A_CNXN, A_VERSION, 256 * 1024, 'host::features=shell_v2\0');
  const challenge = await a.next();
  expect(challenge).toMatchObject({ command: A_AUTH, arg0: AUTH_TOKEN });
  expect(challenge!.data.length).toBe(20);
  // A signature by a key the device does not know: another token.
  a.send(A_AUTH, AUTH_SIGNATURE, 0, sign(privateKey, challenge!.data));
  const again = await a.next();
  expect(again).toMatchObject({ command: A_AUTH, arg0: AUTH_TOKEN });
  a.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, `${encoded} test@host\0`);
  const cnxn = await a.next();
  expect(cnxn?.command).toBe(A_CNXN);
  expect(cnxn!.data.toString()).toMatch(/^device::ro\.product\.name=nestwright_sim;.*;features=shell_v2,cmd,/);
  a.socket.destroy();

  const b = await Host.connect(adbd.port);
  b.send(A_CNXN, A_VERSION, 256 * 1024, 'host::\0');
  const token = (await b.next())!.data;
  expect(verifySignature(publicKey, token, sign(privateKey, token))).toBe(true);
  expect(verifySignature(publicKey, token, sign(privateKey, Buffer.alloc(20)))).toBe(false);
  b.send(A_AUTH, AUTH_SIGNATURE, 0, sign(privateKey, token));
  expect((await b.next())?.command).toBe(A_CNXN);
  expect(adbd.log).toContain('AUTH signature verified (key test@host)');
  b.socket.destroy();
});

test('a host that skips AUTH, sends a bad header or opens an unknown service is refused; streams follow OPEN/OKAY/WRTE/CLSE', async () => {
  adbd = await startAdbd({});
  const early = await Host.connect(adbd.port);
  early.send(A_OPEN, 1, 0, 'shell:echo hi\0');
  expect(await early.next()).toBeNull();
  expect(early.closed).toBe(true);
  expect(adbd.log.at(-1)).toBe('OPEN before the host was authorized: connection dropped');

  const bad = await Host.connect(adbd.port);
  const p = encodePacket(A_CNXN, A_VERSION, 4096, 'host::\0');
  p.writeUInt32LE(0, 20);
  bad.socket.write(p);
  expect(await bad.next()).toBeNull();
  expect(bad.closed).toBe(true);
  await adbd.close();

  adbd = await startAdbd({ secure: false });
  const h = await Host.connect(adbd.port);
  h.send(A_CNXN, A_VERSION, 4096, 'host::\0');
  expect((await h.next())?.command).toBe(A_CNXN);
  h.send(A_OPEN, 7, 0, 'jdwp:1234\0');
  expect(await h.next()).toMatchObject({ command: A_CLSE, arg0: 0, arg1: 7 });
  h.send(A_OPEN, 8, 0, 'shell,v2,raw:echo hi\0');
  const okay = await h.next();
  expect(okay).toMatchObject({ command: A_OKAY, arg1: 8 });
  const out = await h.next();
  expect(out).toMatchObject({ command: A_WRTE, arg0: okay!.arg0, arg1: 8 });
  // stdout "hi\n", then the exit status 0, in shell-protocol frames.
  expect([...out!.data]).toEqual([1, 3, 0, 0, 0, 0x68, 0x69, 0x0a, 3, 1, 0, 0, 0, 0]);
  // Nothing more until the host acknowledges the WRTE.
  expect(await h.next(300)).toBeNull();
  h.send(A_OKAY, 8, okay!.arg0);
  expect(await h.next()).toMatchObject({ command: A_CLSE, arg0: okay!.arg0, arg1: 8 });
  h.socket.destroy();
});
