import { test, expect } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
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
} from '../../device-runtime/sim/adbd/packet.js';
import { androidPublicKey, RawHost as Host, signToken as sign } from './raw-host.js';

/**
 * The daemon at the packet level, with no adb installed: what a host that misbehaves gets
 * (packets before AUTH, a bad header, an unknown service, a wrong signature), and the signature
 * check against a key made here the way adb makes its own (Android's RSAPublicKey format).
 */

let adbd: RunningAdbd | null = null;
test.afterEach(async () => {
  await adbd?.close();
  adbd = null;
});

test('AUTH: a key offered is trusted when the device accepts new keys; the next connection signs the token with it and is let in; a wrong signature gets a new token', async () => {
  adbd = await startAdbd({ keyFiles: [], acceptNewKeys: true });
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
  adbd = await startAdbd({ keyFiles: [] });
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
