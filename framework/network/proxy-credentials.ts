/**
 * What a client of the proxy sends in `Proxy-Authorization: Basic …` (RFC 7617). A file of its
 * own: the proxy's declarations name it, and proxy-gate.ts's name mockttp's types, which a user's
 * type check of `import … from 'nestwright'` would otherwise load (with GraphQL's and the
 * certificate libraries' behind them).
 */
export interface ProxyCredentials {
  username: string;
  password: string;
}
