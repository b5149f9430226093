/**
 * The fake adb server: the long-lived half of the fake `adb`, like the real adb server on
 * tcp:5037. It keeps the devices (devices.json in the state dir, plus those fake emulators attach),
 * runs their commands, holds real TCP forwards to each device's runtime, streams `track-devices`,
 * and drops a device's forwards and connections the moment it vanishes — as real adb does.
 *
 *   node --import tsx tests/providers/fakes/adb-server.ts STATE_DIR
 *
 * (or, outside the fast tier, the same esbuilt once: tests/child-bundle.ts `scriptCommandLine`)
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { FakeDevice, type FakeDeviceSpec } from './fake-device.js';
import { runAdb, type Session } from './adb-commands.js';
import { ForwardTable } from './fake-forward.js';

const dir = process.argv[2]!;
const log = (s: string) => appendFileSync(join(dir, 'adb-server.log'), `${new Date().toISOString()} ${s}\n`);

export class FakeAdbServer {
  readonly devices = new Map<string, FakeDevice>();
  readonly emulators = new Map<string, net.Socket>();
  readonly watchers = new Set<() => void>();
  readonly forwards = new ForwardTable(this);
  private nextTransport = 1;
  private timers = new Set<NodeJS.Timeout>();

  constructor(readonly stateDir: string) {}

  attach(spec: FakeDeviceSpec): FakeDevice {
    this.detach(spec.serial);
    const dev = new FakeDevice(spec, this.stateDir, this.nextTransport++, () => this.changed());
    this.devices.set(spec.serial, dev);
    // An emulator shows `offline` for the first part of its boot, then `device`.
    if (spec.emulator && dev.state === 'offline' && (spec.bootMs ?? 0) > 0) {
      const t = setTimeout(
        () => {
          if (this.devices.get(spec.serial) === dev && dev.state === 'offline') dev.state = 'device';
          this.changed();
        },
        Math.round((spec.bootMs ?? 0) / 3),
      );
      this.timers.add(t);
    }
    log(`attach ${spec.serial} ${dev.state}`);
    this.changed();
    return dev;
  }

  detach(serial: string): void {
    const dev = this.devices.get(serial);
    if (!dev) return;
    this.devices.delete(serial);
    void dev.stopRuntime();
    this.forwards.dropDevice(serial);
    log(`detach ${serial}`);
    this.changed();
  }

  changed(): void {
    for (const w of this.watchers) w();
  }

  /** Stop every runtime and fake emulator, wait (≤ 3 s) for them to exit, then exit. */
  async shutdown(): Promise<never> {
    log('shutdown');
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.emulators.values()) s.write(JSON.stringify({ kill: true }) + '\n');
    await Promise.race([
      Promise.all([...this.devices.values()].map((d) => d.stopRuntime())),
      new Promise((r) => setTimeout(r, 3_000)),
    ]);
    rmSync(join(this.stateDir, 'adb.sock'), { force: true });
    process.exit(0);
  }
}

const server = new FakeAdbServer(dir);
const initial = join(dir, 'devices.json');
if (existsSync(initial))
  for (const spec of JSON.parse(readFileSync(initial, 'utf8')) as FakeDeviceSpec[]) server.attach(spec);

const sockPath = join(dir, 'adb.sock');
rmSync(sockPath, { force: true });
net
  .createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('error', () => {});
    sock.on('data', (d: string) => {
      buf += d;
      const i = buf.indexOf('\n');
      if (i < 0) return;
      const line = buf.slice(0, i);
      buf = '';
      sock.removeAllListeners('data');
      const msg = JSON.parse(line) as {
        tool: string;
        argv?: string[];
        serialEnv?: string | null;
        device?: FakeDeviceSpec;
        op?: string;
        serial?: string;
        patch?: Partial<FakeDeviceSpec>;
      };
      const session: Session = {
        send: (m) => {
          if (!sock.destroyed) sock.write(JSON.stringify(m) + '\n');
        },
        onClose: (f) => sock.once('close', f),
      };
      if (msg.tool === 'adb') {
        log(`adb ${msg.argv!.join(' ')}`);
        void runAdb(server, msg.argv!, msg.serialEnv ?? null, session).catch((e: Error) =>
          session.send({ err: `adb (fake): ${e.stack}\n`, exit: 1 }),
        );
      } else if (msg.tool === 'emulator-attach') {
        // The fake emulator keeps this socket open for as long as it runs.
        const serial = msg.device!.serial;
        if (server.devices.has(serial)) {
          session.send({ error: `${serial} is already attached` });
          sock.end();
          return;
        }
        server.attach(msg.device!);
        server.emulators.set(serial, sock);
        session.send({ attached: serial });
        sock.once('close', () => {
          if (server.emulators.get(serial) === sock) {
            server.emulators.delete(serial);
            server.detach(serial);
          }
        });
      } else if (msg.tool === 'control') {
        control(msg, session);
      }
    });
  })
  .listen(sockPath, () => log(`listening on ${sockPath}`));

function control(
  msg: { op?: string; serial?: string; device?: FakeDeviceSpec; patch?: Partial<FakeDeviceSpec> },
  session: Session,
): void {
  switch (msg.op) {
    case 'attach':
      server.attach(msg.device!);
      break;
    case 'detach':
      server.detach(msg.serial!);
      break;
    case 'set': {
      const dev = server.devices.get(msg.serial!);
      if (dev && msg.patch?.state) dev.state = msg.patch.state;
      // bootMs counts from when the device appeared: 0 finishes the boot now.
      if (dev && msg.patch?.bootMs !== undefined) dev.spec.bootMs = msg.patch.bootMs;
      server.changed();
      break;
    }
    case 'shutdown':
      // The caller sees the socket close when the server has exited.
      void server.shutdown();
      return;
    case 'state':
      session.send({
        devices: [...server.devices.values()].map((d) => ({
          serial: d.serial,
          state: d.state,
          runtime: d.runtimeRunning,
          listening: d.runtimeListening,
          packages: [...d.packages.keys()],
        })),
        forwards: server.forwards.list(),
      });
      return;
  }
  session.send({ ok: true });
}

process.on('SIGTERM', () => void server.shutdown());
process.on('SIGINT', () => void server.shutdown());
writeFileSync(join(dir, 'adb-server.pid'), String(process.pid));
