import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

/**
 * The simulator's certificate authority: a CA made when the backend starts, and a leaf
 * certificate signed by it for the backend's host names. The CA is what the simulated device's
 * system trust store holds (net_info's `system_ca_pem`), so the apps verify the backend as a
 * phone verifies a real server, and a proxy that intercepts TLS must present a CA the instance
 * was told to trust (net_proxy_set).
 *
 * node:crypto parses certificates (X509Certificate) but cannot issue them, so certificates are
 * made with node-forge, a kept X.509 library (a pure-JS dependency with no native build). Keys are made
 * with node:crypto (much faster than forge's pure-JS RSA) and handed to forge as PEM.
 *
 * forge is required when the first certificate is made (the backend's first start), not when the
 * simulator loads: about 60 ms of CPU that a run whose apps use no network never pays.
 */

let forgeModule: typeof Forge | undefined;
const forge = (): typeof Forge => (forgeModule ??= createRequire(import.meta.url)('node-forge') as typeof Forge);

export interface IssuedCert {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

function keyPair(): { publicKey: Forge.pki.PublicKey; privateKey: Forge.pki.PrivateKey; pem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge().pki.publicKeyFromPem(publicKey),
    privateKey: forge().pki.privateKeyFromPem(privateKey),
    pem: privateKey,
  };
}

function serial(): string {
  // A positive serial: the top bit clear.
  const b = randomBytes(16);
  b[0]! &= 0x7f;
  return b.toString('hex');
}

function validity(cert: Forge.pki.Certificate): void {
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 24 * 3_600_000);
  cert.validity.notAfter = new Date(now + 365 * 24 * 3_600_000);
}

/** A CA certificate and key named `commonName` (self-signed, basicConstraints CA). */
export function issueCa(commonName: string): IssuedCert {
  const keys = keyPair();
  const ca = forge().pki.createCertificate();
  ca.publicKey = keys.publicKey;
  ca.serialNumber = serial();
  validity(ca);
  const name = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'nestwright' },
  ];
  ca.setSubject(name);
  ca.setIssuer(name);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(keys.privateKey as Forge.pki.rsa.PrivateKey, forge().md.sha256.create());
  return { cert: forge().pki.certificateToPem(ca), key: keys.pem };
}

/** A server certificate for `hosts` (subjectAltName DNS names, plus localhost and 127.0.0.1), signed by `ca`. */
export function issueLeaf(ca: IssuedCert, hosts: readonly string[]): IssuedCert {
  const caCert = forge().pki.certificateFromPem(ca.cert);
  const caKey = forge().pki.privateKeyFromPem(ca.key) as Forge.pki.rsa.PrivateKey;
  const keys = keyPair();
  const leaf = forge().pki.createCertificate();
  leaf.publicKey = keys.publicKey;
  leaf.serialNumber = serial();
  validity(leaf);
  leaf.setSubject([{ name: 'commonName', value: hosts[0] ?? 'localhost' }]);
  leaf.setIssuer(caCert.subject.attributes);
  leaf.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        ...hosts.map((value) => ({ type: 2, value })),
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  leaf.sign(caKey, forge().md.sha256.create());
  return { cert: forge().pki.certificateToPem(leaf), key: keys.pem };
}

/** The simulator's CA and a leaf for `hosts` signed by it. */
export function issueBackendCerts(hosts: readonly string[]): { ca: IssuedCert; leaf: IssuedCert } {
  const ca = issueCa('nestwright simulator CA');
  return { ca, leaf: issueLeaf(ca, hosts) };
}
