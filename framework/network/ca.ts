/** The proxy's certificate authority: its key (for the proxy) and its certificate (for the instance to trust). */
export interface ProxyCa {
  key: string;
  cert: string;
}

let ca: Promise<ProxyCa> | null = null;

/**
 * The worker's CA, generated once per process (an RSA key: about 100 ms) and shared by every
 * instance's proxy in it: an instance trusts it only while its proxy is set (`net_proxy_set`
 * hands it over, `net_proxy_clear` removes it), so sharing it across the worker's tests grants
 * nothing beyond what each test asked for. Its name says what it is; its names are not constrained,
 * since a test may route any host the app calls.
 */
export function proxyCa(): Promise<ProxyCa> {
  // mockttp loads on first use (see proxy.ts).
  ca ??= import('mockttp')
    .then(({ generateCACertificate }) =>
      generateCACertificate({
        subject: { commonName: 'nestwright network proxy (test only)', organizationName: 'nestwright' },
        bits: 2048,
      }),
    )
    .catch((e: unknown) => {
      ca = null;
      throw e;
    });
  return ca;
}
