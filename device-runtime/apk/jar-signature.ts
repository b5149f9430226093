/**
 * v1 (JAR) signatures: `META-INF/*.RSA|.DSA|.EC` hold a PKCS#7 SignedData (RFC 2315) whose
 * `certificates` field carries the signer's X.509 chain. We report the SHA-256 of the certificate
 * matching the SignerInfo's issuer-and-serial (the signing certificate) first, then the rest.
 * We do not verify the signature itself: preflight compares identities, the device verifies.
 */
import { createHash } from 'node:crypto';
import { ApkError, check } from './apk-error.js';
import { bytesOf, children, contentOf, readDer, type Der } from './der.js';

const OID_SIGNED_DATA = Buffer.from('2a864886f70d010702', 'hex'); // 1.2.840.113549.1.7.2

export const JAR_SIG_BLOCK = /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i;

/** SHA-256 hex of each certificate in a PKCS#7 block, signing certificate first. */
export function pkcs7CertDigests(block: Buffer, entry: string): string[] {
  try {
    const contentInfo = readDer(block, 0);
    const [oid, explicit] = children(contentInfo);
    check(!!oid && oid.tag === 0x06 && contentOf(oid).equals(OID_SIGNED_DATA), `${entry}: not a PKCS#7 SignedData block`);
    check(!!explicit && explicit.tag === 0xa0, `${entry}: SignedData content missing`);
    const [signedData] = children(explicit);
    check(!!signedData && signedData.tag === 0x30, `${entry}: SignedData is not a SEQUENCE`);
    const fields = children(signedData);
    const certSet = fields.find((f) => f.tag === 0xa0); // [0] IMPLICIT certificates
    const signerInfos = fields[fields.length - 1];
    if (!certSet) return [];
    const certs = children(certSet).filter((c) => c.tag === 0x30);
    const signerSerial = signerInfos && signerInfos.tag === 0x31 ? firstSignerSerial(signerInfos) : null;
    certs.sort((a, b) => Number(signerSerial !== null && certSerial(b)?.equals(signerSerial)) - Number(signerSerial !== null && certSerial(a)?.equals(signerSerial)));
    return certs.map((c) => createHash('sha256').update(bytesOf(c)).digest('hex'));
  } catch (err) {
    if (err instanceof ApkError) throw new ApkError(`${entry}: ${err.reason}`);
    throw err;
  }
}

function firstSignerSerial(set: Der): Buffer | null {
  const [signerInfo] = children(set);
  if (!signerInfo) return null;
  const [, issuerAndSerial] = children(signerInfo);
  if (!issuerAndSerial || issuerAndSerial.tag !== 0x30) return null; // v3 SignerInfo uses subjectKeyIdentifier
  const serial = children(issuerAndSerial)[1];
  return serial && serial.tag === 0x02 ? contentOf(serial) : null;
}

function certSerial(cert: Der): Buffer | null {
  const [tbs] = children(cert);
  if (!tbs) return null;
  const f = children(tbs);
  const serial = f[0]?.tag === 0xa0 ? f[1] : f[0];
  return serial && serial.tag === 0x02 ? contentOf(serial) : null;
}
