import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueBackendCerts, issueCa, issueLeaf } from '../../device-runtime/sim/net/ca.js';

/**
 * The simulator's certificates (device-runtime/sim/net/ca.ts), encoded by hand with forge's DER
 * encoder and signed by node:crypto: read back by node:crypto's parser and verified by OpenSSL's
 * own command line, strictly (RFC 5280) and for the purpose they serve (a TLS server).
 */
const HOSTS = ['api.shop.nestwright.test', 'api.chat.nestwright.test'];
const OPENSSL = '/usr/bin/openssl';

test('the CA is a CA, the leaf is its TLS server certificate for every backend name, localhost and 127.0.0.1', () => {
  const { ca, leaf } = issueBackendCerts(HOSTS);
  const caCert = new X509Certificate(ca.cert);
  const leafCert = new X509Certificate(leaf.cert);
  expect(caCert.ca).toBe(true);
  expect(leafCert.ca).toBe(false);
  expect(caCert.subject).toBe('CN=nestwright simulator CA\nO=nestwright');
  expect(leafCert.issuer).toBe(caCert.subject);
  expect(leafCert.checkIssued(caCert)).toBe(true);
  expect(leafCert.verify(caCert.publicKey)).toBe(true);
  expect(caCert.verify(caCert.publicKey)).toBe(true);
  for (const host of [...HOSTS, 'localhost']) expect(leafCert.checkHost(host)).toBe(host);
  expect(leafCert.checkHost('api.evil.test')).toBeUndefined();
  expect(leafCert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  expect(leafCert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // extended key usage: serverAuth
  expect(leafCert.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
  // Each key is its certificate's.
  for (const { cert, key } of [ca, leaf]) {
    const signature = sign('sha256', Buffer.from('hello'), createPrivateKey(key));
    expect(verify('sha256', Buffer.from('hello'), createPublicKey(cert), signature)).toBe(true);
  }
  // Valid from a day ago for a year; serials differ.
  const day = 24 * 3_600_000;
  expect(Math.abs(Date.parse(leafCert.validFrom) - (Date.now() - day))).toBeLessThan(60_000);
  expect(Date.parse(leafCert.validTo) - Date.parse(leafCert.validFrom)).toBe(366 * day);
  expect(leafCert.serialNumber).not.toBe(caCert.serialNumber);
});

/** `openssl verify -x509_strict -purpose sslserver` of `leaf` against `ca` (PEMs): what it prints, OK or why not. */
function opensslVerify(ca: string, leaf: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'nw-ca-'));
  try {
    writeFileSync(path.join(dir, 'ca.pem'), ca);
    writeFileSync(path.join(dir, 'leaf.pem'), leaf);
    return execFileSync(OPENSSL, ['verify', '-x509_strict', '-purpose', 'sslserver', '-CAfile', 'ca.pem', 'leaf.pem'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? e);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('OpenSSL verifies the chain strictly, for a TLS server, and refuses a leaf of another CA', () => {
  test.skip(!existsSync(OPENSSL), `${OPENSSL} is absent (apt-get install openssl)`);
  const { ca, leaf } = issueBackendCerts(HOSTS);
  const other = issueLeaf(issueCa('another CA'), HOSTS);
  expect(opensslVerify(ca.cert, leaf.cert)).toBe('leaf.pem: OK\n');
  expect(opensslVerify(ca.cert, other.cert)).toContain('unable to get local issuer certificate');
});

test("a proxy's RSA CA (mockttp's) issues a leaf signed with SHA-256 and RSA, which OpenSSL verifies", async () => {
  test.skip(!existsSync(OPENSSL), `${OPENSSL} is absent (apt-get install openssl)`);
  const { generateCACertificate } = await import('mockttp');
  const rsa = await generateCACertificate({ subject: { commonName: 'an RSA proxy CA' }, bits: 2048 });
  const leaf = issueLeaf(rsa, HOSTS);
  const leafCert = new X509Certificate(leaf.cert);
  expect(leafCert.verify(new X509Certificate(rsa.cert).publicKey)).toBe(true);
  expect(leafCert.checkIssued(new X509Certificate(rsa.cert))).toBe(true);
  expect(opensslVerify(rsa.cert, leaf.cert)).toBe('leaf.pem: OK\n');
});

test('a CA whose key is neither EC nor RSA is refused, naming the API and what to give', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const ca = { cert: issueCa('x').cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
  expect(() => issueLeaf(ca, HOSTS)).toThrow(/^issueLeaf: the CA's key is ed25519; give an EC \(P-256\) or RSA CA key/);
});
