/**
 * A minimal DER walker: enough ASN.1 to find the certificates inside a PKCS#7 SignedData block
 * (v1 JAR signatures). Node's crypto can parse an X.509 certificate but not a PKCS#7 envelope, and
 * pulling in a full ASN.1 library for one path through the tree is not worth it. Every length is
 * checked against its parent; indefinite lengths (BER) are rejected.
 */
import { check } from './apk-error.js';

export type Der = {
  /** Identifier octet (class, constructed bit, tag number < 31). */
  tag: number;
  /** Offset of the whole TLV in the buffer, and its total length. */
  start: number;
  end: number;
  /** Offset of the contents. */
  contentStart: number;
  buf: Buffer;
};

/** Reads one TLV at `off`, not extending past `limit`. */
export function readDer(buf: Buffer, off: number, limit = buf.length): Der {
  check(off + 2 <= limit, 'signature block: DER element truncated');
  const tag = buf[off]!;
  check((tag & 0x1f) !== 0x1f, 'signature block: multi-byte DER tags are not supported');
  let len = buf[off + 1]!;
  let p = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    check(n >= 1 && n <= 4, 'signature block: unsupported DER length form');
    check(p + n <= limit, 'signature block: DER length truncated');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p + i]!;
    p += n;
  }
  check(p + len <= limit, 'signature block: DER element runs past its parent');
  return { tag, start: off, end: p + len, contentStart: p, buf };
}

/** The child elements of a constructed element. */
export function children(d: Der): Der[] {
  check((d.tag & 0x20) !== 0, 'signature block: expected a constructed DER element');
  const out: Der[] = [];
  let p = d.contentStart;
  while (p < d.end) {
    const c = readDer(d.buf, p, d.end);
    out.push(c);
    p = c.end;
    check(out.length <= 10_000, 'signature block: too many DER elements');
  }
  return out;
}

export function bytesOf(d: Der): Buffer {
  return d.buf.subarray(d.start, d.end);
}
export function contentOf(d: Der): Buffer {
  return d.buf.subarray(d.contentStart, d.end);
}
