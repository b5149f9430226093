/**
 * v1 (JAR) signatures: `META-INF/*.RSA|.DSA|.EC` hold a PKCS#7 SignedData (RFC 2315) whose
 * `certificates` field carries the signer's X.509 chain. We report the SHA-256 of the certificate
 * matching the SignerInfo's issuer-and-serial (the signing certificate) first, then the rest.
 * `verifyPkcs7` checks the signature over the `.SF` file (./jar-verify.ts does the rest of v1).
 */
import { createHash, verify, X509Certificate } from 'node:crypto';
import { ApkError, check } from './apk-error.js';
import { bytesOf, children, contentOf, readDer, type Der } from './der.js';

const OID_SIGNED_DATA = Buffer.from('2a864886f70d010702', 'hex'); // 1.2.840.113549.1.7.2

export const JAR_SIG_BLOCK = /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i;

/** SHA-256 hex of each certificate in a PKCS#7 block, signing certificate first. */
export function pkcs7CertDigests(block: Buffer, entry: string): string[] {
  try {
    const contentInfo = readDer(block, 0);
    const [oid, explicit] = children(contentInfo);
    check(
      !!oid && oid.tag === 0x06 && contentOf(oid).equals(OID_SIGNED_DATA),
      `${entry}: not a PKCS#7 SignedData block`,
    );
    check(!!explicit && explicit.tag === 0xa0, `${entry}: SignedData content missing`);
    const [signedData] = children(explicit);
    check(!!signedData && signedData.tag === 0x30, `${entry}: SignedData is not a SEQUENCE`);
    const fields = children(signedData);
    const certSet = fields.find((f) => f.tag === 0xa0); // [0] IMPLICIT certificates
    const signerInfos = fields[fields.length - 1];
    if (!certSet) return [];
    const certs = children(certSet).filter((c) => c.tag === 0x30);
    const signerSerial = signerInfos && signerInfos.tag === 0x31 ? firstSignerSerial(signerInfos) : null;
    certs.sort(
      (a, b) =>
        Number(signerSerial !== null && certSerial(b)?.equals(signerSerial)) -
        Number(signerSerial !== null && certSerial(a)?.equals(signerSerial)),
    );
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

const OID_HASH: ReadonlyMap<string, string> = new Map([
  ['2b0e03021a', 'sha1'], // 1.3.14.3.2.26
  ['608648016503040201', 'sha256'],
  ['608648016503040202', 'sha384'],
  ['608648016503040203', 'sha512'],
]);
const OID_MESSAGE_DIGEST = '2a864886f70d010904'; // 1.2.840.113549.1.9.4

/**
 * Verifies the PKCS#7 SignedData of a JAR signature block over `signed` (the `.SF` file): every
 * SignerInfo's signature checks with the public key of the certificate it names (issuer and
 * serial). With authenticated attributes, their messageDigest must be the `.SF` digest and the
 * signature covers the attributes re-tagged as a SET (RFC 2315 §9.3). The key type (RSA, EC, DSA)
 * comes from the certificate; node:crypto's `verify` applies PKCS#1 v1.5 or DER-encoded
 * ECDSA/DSA accordingly. Returns the problems found (empty = verified).
 */
export function verifyPkcs7(block: Buffer, signed: Buffer, entry: string): string[] {
  try {
    const [, explicit] = children(readDer(block, 0));
    const fields = children(children(explicit!)[0]!);
    const certSet = fields.find((f) => f.tag === 0xa0);
    const signerInfos = fields[fields.length - 1];
    check(!!certSet && !!signerInfos && signerInfos.tag === 0x31, `${entry}: no certificates or signer infos`);
    const certs = children(certSet).filter((c) => c.tag === 0x30);
    const infos = children(signerInfos);
    if (infos.length === 0) return [`${entry}: no signer`];
    const problems: string[] = [];
    for (const info of infos) {
      const f = children(info);
      const [, sid, digestAlg] = f;
      check(!!sid && sid.tag === 0x30 && !!digestAlg, `${entry}: SignerInfo is not issuer-and-serial form`);
      const [issuer, serial] = children(sid);
      const cert = certs.find((c) => {
        const tbs = children(children(c)[0]!);
        const o = tbs[0]?.tag === 0xa0 ? 1 : 0;
        return contentOf(tbs[o]!).equals(contentOf(serial!)) && bytesOf(tbs[o + 2]!).equals(bytesOf(issuer!));
      });
      if (!cert) {
        problems.push(`${entry}: the signer's certificate is not in the block`);
        continue;
      }
      const hash = OID_HASH.get(contentOf(children(digestAlg)[0]!).toString('hex'));
      if (!hash) {
        problems.push(`${entry}: unsupported digest algorithm`);
        continue;
      }
      const attrs = f[3]?.tag === 0xa0 ? f[3] : null;
      const sig = f[attrs ? 5 : 4];
      check(!!sig && sig.tag === 0x04, `${entry}: SignerInfo has no encryptedDigest`);
      let data = signed;
      if (attrs) {
        const md = children(attrs).find((a) => contentOf(children(a)[0]!).toString('hex') === OID_MESSAGE_DIGEST);
        const value = md && children(children(md)[1]!)[0];
        if (!value || !contentOf(value).equals(createHash(hash).update(signed).digest())) {
          problems.push(`${entry}: the signed messageDigest is not the digest of the .SF file`);
          continue;
        }
        data = Buffer.concat([Buffer.from([0x31]), bytesOf(attrs).subarray(1)]);
      }
      let ok = false;
      let x509: X509Certificate | null = null;
      try {
        x509 = new X509Certificate(bytesOf(cert));
        ok = verify(hash, data, x509.publicKey, contentOf(sig));
      } catch {
        ok = false;
      }
      if (!ok) problems.push(`${entry}: the signature over the .SF file does not verify with the signer's certificate`);
      // Nothing in a v1 signature covers the certificate itself (Android uses it only as the
      // signer's identity), so an edited certificate — a changed identity — passes Android. Its
      // own signature is what can tell: it must verify under its own key (self-signed, as APK
      // signing certificates are) or under a certificate of the block that issued it. One that
      // does neither (an edited subject no longer names itself as issuer; a CA-issued one shipped
      // without its issuer) cannot be told from an altered one and is refused as unverifiable.
      else if (
        x509 &&
        !certificateVerifies(
          x509,
          certs.filter((c) => c !== cert),
        )
      )
        problems.push(
          `${entry}: the signing certificate's own signature does not verify, under its own key or an issuer's in the block: it was altered, or cannot be checked`,
        );
    }
    return problems;
  } catch (err) {
    if (err instanceof ApkError) return [err.reason.startsWith(entry) ? err.reason : `${entry}: ${err.reason}`];
    if (err instanceof TypeError) return [`${entry}: malformed PKCS#7 block`];
    throw err;
  }
}

function certificateVerifies(cert: X509Certificate, others: Der[]): boolean {
  if (safeVerify(cert, cert)) return true;
  for (const o of others) {
    let issuer: X509Certificate;
    try {
      issuer = new X509Certificate(bytesOf(o));
    } catch {
      continue;
    }
    if (cert.checkIssued(issuer) && safeVerify(cert, issuer)) return true;
  }
  return false;
}

function safeVerify(cert: X509Certificate, by: X509Certificate): boolean {
  try {
    return cert.verify(by.publicKey);
  } catch {
    return false;
  }
}
