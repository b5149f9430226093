import type { NetInfo } from '../../protocol/index.js';
import type { Clock } from '../faults/clock.js';
import type { FaultProfile } from '../faults/profile.js';
import { BACKEND_HOSTS, SimBackend } from './backend.js';
import { issueBackendCerts, type IssuedCert } from './ca.js';

/** The simulated device's hosts file entry: a name and port the app uses, and where it really leads. */
export interface HostEntry {
  host: string;
  port: number;
  address: string;
  address_port: number;
}

/** One CA and leaf per process: making RSA keys takes a moment, and every runtime's backend may share them. */
let certs: { ca: IssuedCert; leaf: IssuedCert } | undefined;
function backendCerts() {
  return (certs ??= issueBackendCerts(BACKEND_HOSTS));
}

/**
 * The simulated device's network, one per runtime (in its SimEnv): the app backends it serves on
 * loopback (sim/net/backend.ts), started when an app or net_info first needs them; its hosts table
 * (`api.shop.nestwright.test:443` → `127.0.0.1:<port>`); and its system trust store beyond public
 * CAs (the backend's CA). The apps' HTTP clients (sim/net/http-client.ts) resolve through it.
 */
export class SimNetwork {
  private backend: SimBackend | null = null;
  private started: Promise<number> | null = null;
  /** The port of a backend stopped by stop(): it stays in the hosts table, and nothing listens on it. */
  private stoppedPort: number | null = null;

  constructor(
    private readonly faults: () => FaultProfile,
    private readonly clock: () => Clock,
  ) {}

  /** The backend's port, starting it on first use. */
  ready(): Promise<number> {
    if (this.stoppedPort !== null) return Promise.resolve(this.stoppedPort);
    if (!this.started) {
      this.backend = new SimBackend(this.faults, this.clock, backendCerts().leaf);
      this.started = this.backend.start();
      this.started.catch(() => (this.started = null));
    }
    return this.started;
  }

  /** The system CA (PEM) of the simulated device: what it trusts beyond public CAs. */
  get systemCa(): string {
    return backendCerts().ca.cert;
  }

  /** The hosts table, once the backend listens. */
  async hosts(): Promise<HostEntry[]> {
    const port = await this.ready();
    return BACKEND_HOSTS.map((host) => ({ host, port: 443, address: '127.0.0.1', address_port: port }));
  }

  async info(): Promise<NetInfo> {
    return { hosts: await this.hosts(), system_ca_pem: this.systemCa };
  }

  /**
   * Stop the backend and keep it stopped (a test's "the server is down"): the hosts table still
   * maps its names to the port it had, where nothing listens, so every request that reaches it
   * is refused as it would be on a phone. Nothing starts it again; close() ends that.
   */
  async stop(): Promise<void> {
    const port = await this.ready();
    await this.close();
    this.stoppedPort = port;
  }

  async close(): Promise<void> {
    this.stoppedPort = null;
    const b = this.backend;
    this.backend = null;
    this.started = null;
    await b?.close();
  }
}
