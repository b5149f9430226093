/**
 * adb's transport packets (AOSP packages/modules/adb, protocol.txt): a 24-byte little-endian
 * header — command, arg0, arg1, data length, data checksum, command ^ 0xffffffff — then the data.
 */
export const A_SYNC = 0x434e5953;
export const A_CNXN = 0x4e584e43;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;
export const A_AUTH = 0x48545541;
export const A_STLS = 0x534c5453;

/** The protocol version that lets either side skip the data checksum; what adb has sent since 2016. */
export const A_VERSION = 0x01000001;
export const A_VERSION_MIN = 0x01000000;
/** The largest data a packet may carry, before both sides agree on less. */
export const MAX_PAYLOAD = 1024 * 1024;

/** AUTH arg0: the device's challenge, the host's signature of it, the host's public key. */
export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;

const HEADER = 24;

export interface Packet {
  command: number;
  arg0: number;
  arg1: number;
  data: Buffer;
}

/** The command's four letters, for logs and errors. */
export function commandName(command: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(command >>> 0);
  return /^[A-Z]{4}$/.test(b.toString('latin1')) ? b.toString('latin1') : `0x${command.toString(16)}`;
}

export function encodePacket(
  command: number,
  arg0: number,
  arg1: number,
  data: Buffer | string = Buffer.alloc(0),
): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(command >>> 0, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(body.length, 12);
  // The checksum is the byte sum; peers of version A_VERSION ignore it, older ones check it.
  let sum = 0;
  for (const byte of body) sum = (sum + byte) >>> 0;
  header.writeUInt32LE(sum, 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return body.length ? Buffer.concat([header, body]) : header;
}

/** A packet the peer sent that cannot be read: the connection is dropped, as adbd drops it. */
export class PacketError extends Error {
  constructor(message: string) {
    super(`adbd: BAD_PACKET: ${message}`);
    this.name = 'PacketError';
  }
}

/**
 * Cuts a byte stream into packets. `push` takes whatever the socket delivered and returns the
 * packets it completes; a header whose magic does not match, or data longer than `maxData`,
 * throws PacketError.
 */
export class PacketReader {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly maxData = MAX_PAYLOAD) {}

  push(chunk: Buffer): Packet[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Packet[] = [];
    while (this.buf.length >= HEADER) {
      const command = this.buf.readUInt32LE(0);
      if (this.buf.readUInt32LE(20) !== (command ^ 0xffffffff) >>> 0) {
        throw new PacketError(`header magic does not match command ${commandName(command)}`);
      }
      const length = this.buf.readUInt32LE(12);
      if (length > this.maxData)
        throw new PacketError(`${commandName(command)} carries ${length} bytes, over the limit`);
      if (this.buf.length < HEADER + length) break;
      out.push({
        command,
        arg0: this.buf.readUInt32LE(4),
        arg1: this.buf.readUInt32LE(8),
        data: Buffer.from(this.buf.subarray(HEADER, HEADER + length)),
      });
      this.buf = this.buf.subarray(HEADER + length);
    }
    return out;
  }
}
