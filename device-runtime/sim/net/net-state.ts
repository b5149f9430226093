import { X509Certificate } from 'node:crypto';
import type { NetProxy, NetProxyAuth, NetState } from '../../protocol/index.js';

/** A proxy as net_proxy_set gave it: where, and the credentials the instance sends it (if any). */
export type SimProxy = NetProxy & { auth?: NetProxyAuth };

/**
 * One instance's network as the net_* tools set it (the `net_proxy` extension): the HTTP proxy
 * its requests go through (and the credentials it sends that proxy), the CA certificates it
 * trusts besides the system store, and whether it is offline. Held by the instance in memory only
 * (never in the saved state) and reset with its data, so it is gone with the instance.
 */
export class SimNet {
  proxy: SimProxy | null = null;
  /** PEM certificates trusted besides the system store (from net_proxy_set). */
  extraCa: string[] = [];
  offline = false;
  /** Bumped on every change: an HTTP client built for an older setting is rebuilt. */
  version = 0;

  setProxy(proxy: SimProxy, ca: string[]): void {
    this.proxy = { host: proxy.host, port: proxy.port, ...(proxy.auth ? { auth: { ...proxy.auth } } : {}) };
    this.extraCa = ca;
    this.version++;
  }

  clearProxy(): void {
    this.proxy = null;
    this.extraCa = [];
    this.version++;
  }

  setOffline(offline: boolean): void {
    this.offline = offline;
    this.version++;
  }

  state(): NetState {
    const p = this.proxy;
    return {
      proxy: p ? { host: p.host, port: p.port, auth: p.auth !== undefined } : null,
      extra_ca: this.extraCa.length > 0,
      offline: this.offline,
    };
  }
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** What is wrong with a `ca_pem`: thrown by {@link parseCaPem}, answered as INVALID_ARGUMENT. */
export class BadCaPem extends Error {
  override readonly name = 'BadCaPem';
}

/**
 * The certificates of `pem`, each checked with node:crypto's X509Certificate; a bad input throws
 * {@link BadCaPem} saying what is wrong (no PEM block, a block that is not a certificate, a
 * certificate that does not parse, one that is not a CA).
 */
export function parseCaPem(pem: string): string[] {
  const bad = (what: string) => new BadCaPem(`ca_pem ${what}`);
  const blocks = [...pem.matchAll(BLOCK)];
  if (blocks.length === 0)
    throw bad('has no PEM block (expected -----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)');
  return blocks.map((m, i) => {
    const label = m[1]!;
    const which = blocks.length > 1 ? `block ${i + 1}` : 'its block';
    if (label !== 'CERTIFICATE')
      throw bad(`${which} is a ${label}, not a CERTIFICATE (give the certificate, not a key)`);
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(m[0]);
    } catch (e) {
      throw bad(`${which} is not a valid X.509 certificate (${(e as Error).message})`);
    }
    if (!cert.ca)
      throw bad(`${which} (${cert.subject.replace(/\n/g, ', ')}) is not a CA certificate (basicConstraints CA:FALSE)`);
    return cert.toString();
  });
}
