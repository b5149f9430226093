import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { createRequire } from 'node:module';
import type Forge from 'node-forge';

/**
 * The simulator's certificate authority: a CA made when the backend starts, and a leaf
 * certificate signed by it for the backend's host names. The CA is what the simulated device's
 * system trust store holds (net_info's `system_ca_pem`), so the apps verify the backend as a
 * phone verifies a real server, and a proxy that intercepts TLS must present a CA the instance
 * was told to trust (net_proxy_set).
 *
 * Keys are ECDSA P-256, made and used by node:crypto: a pair takes well under a millisecond,
 * where an RSA-2048 pair took 100–300 ms (and two of them, the CA's and the leaf's, were most of
 * what a run's first request to a backend cost). node:crypto parses certificates
 * (X509Certificate) but cannot issue them, and node-forge's certificates take RSA keys only, so
 * the certificate's structure (RFC 5280's TBSCertificate) is encoded with node-forge's DER
 * encoder (`asn1`, a kept library) and signed by node:crypto. What is made is checked by
 * node:crypto's parser and by OpenSSL's `verify` (tests/network-sim/ca.test.ts).
 *
 * forge's encoder is required when the first certificate is made (the backend's first start), not
 * when the simulator loads: a run whose apps use no network never pays for it.
 */

let asn1Module: typeof Forge.asn1 | undefined;
const asn1 = (): typeof Forge.asn1 =>
  (asn1Module ??= createRequire(import.meta.url)('node-forge/lib/asn1') as typeof Forge.asn1);

export interface IssuedCert {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

type Node = Forge.asn1.Asn1;
const bin = (b: Buffer): string => b.toString('binary');
const der = (node: Node): Buffer => Buffer.from(asn1().toDer(node).getBytes(), 'binary');

function u(type: number, value: string | Node[]): Node {
  const a = asn1();
  return a.create(a.Class.UNIVERSAL, type, Array.isArray(value), value);
}
const seq = (...items: Node[]) => u(asn1().Type.SEQUENCE, items);
const oid = (dotted: string) => u(asn1().Type.OID, asn1().oidToDer(dotted).getBytes());
const octets = (bytes: string) => u(asn1().Type.OCTETSTRING, bytes);
const bits = (bytes: string, unused = 0) => u(asn1().Type.BITSTRING, String.fromCharCode(unused) + bytes);
/** An explicit ([n] holding a value) or implicit ([n] in place of a primitive) context tag. */
const tagged = (n: number, value: Node[] | string) =>
  asn1().create(asn1().Class.CONTEXT_SPECIFIC, n, Array.isArray(value), value);

/**
 * The signature algorithm of certificates `key` signs: ECDSA with SHA-256 for this module's keys,
 * SHA-256 with RSA for an RSA CA handed in (a proxy's own, such as mockttp's).
 */
function signatureAlgorithm(key: KeyObject): Node {
  if (key.asymmetricKeyType === 'ec') return seq(oid(OID.ecdsaWithSha256));
  if (key.asymmetricKeyType === 'rsa') return seq(oid(OID.sha256WithRsa), u(asn1().Type.NULL, ''));
  throw new Error(
    `issueLeaf: the CA's key is ${key.asymmetricKeyType ?? 'of no known type'}; give an EC (P-256) or RSA CA key in PKCS#8 PEM`,
  );
}

/** A distinguished name: the common name, and nestwright as its organisation. */
function name(commonName: string): Node {
  const rdn = (type: string, value: string) => u(asn1().Type.SET, [seq(oid(type), u(asn1().Type.UTF8, value))]);
  return seq(rdn(OID.commonName, commonName), rdn(OID.organizationName, 'nestwright'));
}

/** An extension: its id, whether it is critical, and its DER value. */
function extension(id: string, value: Node, critical = false): Node {
  return seq(oid(id), ...(critical ? [u(asn1().Type.BOOLEAN, '\xff')] : []), octets(bin(der(value))));
}

interface Issuer {
  name: Node;
  /** Its subject key identifier, which its leaves name as their authority key identifier. */
  keyId: Buffer;
  key: KeyObject;
}

/** The key identifier of a SubjectPublicKeyInfo: the SHA-1 of its key's bits (RFC 5280 4.2.1.2). */
function keyIdOf(spki: Node): Buffer {
  const keyBits = ((spki.value as Node[])[1]!.value as string).slice(1); // the BIT STRING, its unused-bits byte off
  return createHash('sha1').update(Buffer.from(keyBits, 'binary')).digest();
}

/** A new P-256 key pair: its SubjectPublicKeyInfo (DER), key identifier and private key. */
function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = asn1().fromDer(bin(publicKey.export({ type: 'spki', format: 'der' })));
  return { spki, keyId: keyIdOf(spki), privateKey };
}

/** A positive 16-byte serial (the top bit clear). */
function serial(): Node {
  const b = randomBytes(16);
  b[0]! &= 0x7f;
  b[0]! |= 0x01; // nor a zero first byte: DER's integers have no leading zero
  return u(asn1().Type.INTEGER, bin(b));
}

/** The certificate (PEM) for `subject`'s key with `extensions`, signed by `issuer`. */
function certificate(subject: Node, spki: Node, extensions: Node[], issuer: Issuer): string {
  const now = Date.now();
  const time = (ms: number) => u(asn1().Type.UTCTIME, asn1().dateToUtcTime(new Date(ms)));
  const algorithm = signatureAlgorithm(issuer.key);
  const tbs = seq(
    tagged(0, [u(asn1().Type.INTEGER, '\x02')]), // v3
    serial(),
    algorithm,
    issuer.name,
    seq(time(now - 24 * 3_600_000), time(now + 365 * 24 * 3_600_000)),
    subject,
    spki,
    tagged(3, [seq(...extensions)]),
  );
  const signature = sign('sha256', der(tbs), issuer.key); // a DER ECDSA-Sig-Value, or PKCS#1 v1.5
  return new X509Certificate(der(seq(tbs, algorithm, bits(bin(signature))))).toString(); // PEM
}

const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;

/** A CA certificate and key named `commonName` (self-signed, basicConstraints CA). */
export function issueCa(commonName: string): IssuedCert {
  const keys = keyPair();
  const subject = name(commonName);
  const cert = certificate(
    subject,
    keys.spki,
    [
      extension(OID.basicConstraints, seq(u(asn1().Type.BOOLEAN, '\xff')), true),
      extension(OID.keyUsage, bits('\x06', 1), true), // keyCertSign, cRLSign
      extension(OID.subjectKeyIdentifier, octets(bin(keys.keyId))),
    ],
    { name: subject, keyId: keys.keyId, key: keys.privateKey },
  );
  return { cert, key: pem(keys.privateKey) };
}

/** The subject key identifier a certificate's extensions name (what its leaves' authority key identifier must be). */
function subjectKeyId(tbs: Node[]): Buffer | undefined {
  const extensions = tbs.find((n) => n.tagClass === asn1().Class.CONTEXT_SPECIFIC && n.type === 3);
  for (const ext of ((extensions?.value as Node[] | undefined)?.[0]?.value as Node[] | undefined) ?? []) {
    const [id, ...rest] = ext.value as Node[];
    if (asn1().derToOid(id!.value as string) !== OID.subjectKeyIdentifier) continue;
    const inner = asn1().fromDer(rest.at(-1)!.value as string); // the OCTET STRING inside the extension's value
    return Buffer.from(inner.value as string, 'binary');
  }
  return undefined;
}

/** A server certificate for `hosts` (subjectAltName DNS names, plus localhost and 127.0.0.1), signed by `ca`. */
export function issueLeaf(ca: IssuedCert, hosts: readonly string[]): IssuedCert {
  const caCert = asn1().fromDer(bin(new X509Certificate(ca.cert).raw));
  const caTbs = (caCert.value as Node[])[0]!.value as Node[];
  // TBSCertificate: [0] version (absent in a v1 certificate), serial, signature, issuer, validity, subject, key.
  const at = caTbs[0]!.tagClass === asn1().Class.CONTEXT_SPECIFIC ? 1 : 0;
  const issuer: Issuer = {
    name: caTbs[at + 4]!, // the CA's subject is the leaf's issuer, byte for byte
    keyId: subjectKeyId(caTbs) ?? keyIdOf(caTbs[at + 5]!),
    key: createPrivateKey(ca.key),
  };
  const keys = keyPair();
  const altNames = [
    ...[...hosts, 'localhost'].map((host) => tagged(2, host)), // dNSName
    tagged(7, '\x7f\x00\x00\x01'), // iPAddress 127.0.0.1
  ];
  const cert = certificate(
    name(hosts[0] ?? 'localhost'),
    keys.spki,
    [
      extension(OID.basicConstraints, seq()),
      extension(OID.keyUsage, bits('\x80', 7), true), // digitalSignature
      extension(OID.extKeyUsage, seq(oid(OID.serverAuth))),
      extension(OID.subjectAltName, seq(...altNames)),
      extension(OID.subjectKeyIdentifier, octets(bin(keys.keyId))),
      extension(OID.authorityKeyIdentifier, seq(tagged(0, bin(issuer.keyId)))),
    ],
    issuer,
  );
  return { cert, key: pem(keys.privateKey) };
}

/** The simulator's CA and a leaf for `hosts` signed by it. */
export function issueBackendCerts(hosts: readonly string[]): { ca: IssuedCert; leaf: IssuedCert } {
  const ca = issueCa('nestwright simulator CA');
  return { ca, leaf: issueLeaf(ca, hosts) };
}
