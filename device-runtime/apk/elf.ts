/**
 * ELF program headers, for the 16 KB page-size check: a shared library loads on a 16 KB-page
 * device only if every PT_LOAD segment's p_align is at least 16384 (Android 15+ requirement).
 * We read just the ELF header and the program header table from the start of the file.
 */
import { check } from './apk-error.js';

const PT_LOAD = 1;
/** Bytes of a .so we inflate to find its program headers; real tables sit in the first KB. */
export const ELF_PREFIX_BYTES = 64 * 1024;

export type ElfLoadInfo = {
  /** 32 or 64. */
  bits: number;
  machine: number;
  /** Smallest p_align over PT_LOAD segments; null if there is no PT_LOAD. */
  minLoadAlign: number | null;
};

/** Parses the header of an ELF file from its first bytes. Throws ApkError (with a reason) when it is not a readable ELF. */
export function readElfLoadAlign(head: Buffer, what: string): ElfLoadInfo {
  check(head.length >= 52 && head.readUInt32BE(0) === 0x7f454c46, `${what}: not an ELF file`);
  const cls = head[4];
  const data = head[5];
  check(cls === 1 || cls === 2, `${what}: unknown ELF class ${cls}`);
  check(data === 1 || data === 2, `${what}: unknown ELF byte order ${data}`);
  const le = data === 1;
  const u16 = (o: number): number => {
    check(o + 2 <= head.length, `${what}: ELF header truncated`);
    return le ? head.readUInt16LE(o) : head.readUInt16BE(o);
  };
  const u32 = (o: number): number => {
    check(o + 4 <= head.length, `${what}: ELF header truncated`);
    return le ? head.readUInt32LE(o) : head.readUInt32BE(o);
  };
  const u64 = (o: number): number => {
    check(o + 8 <= head.length, `${what}: ELF program header table is beyond the first ${head.length} bytes`);
    const v = le ? head.readBigUInt64LE(o) : head.readBigUInt64BE(o);
    check(v <= BigInt(Number.MAX_SAFE_INTEGER), `${what}: ELF value out of range`);
    return Number(v);
  };
  const is64 = cls === 2;
  check(!is64 || head.length >= 64, `${what}: ELF header truncated`);
  const machine = u16(18);
  const phoff = is64 ? u64(0x20) : u32(0x1c);
  const phentsize = u16(is64 ? 0x36 : 0x2a);
  const phnum = u16(is64 ? 0x38 : 0x2c);
  check(phentsize >= (is64 ? 56 : 32), `${what}: ELF program header size ${phentsize} too small`);
  check(
    phoff + phentsize * phnum <= head.length,
    `${what}: ELF program header table is beyond the first ${head.length} bytes`,
  );
  let min: number | null = null;
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (u32(ph) !== PT_LOAD) continue;
    const align = is64 ? u64(ph + 48) : u32(ph + 28);
    min = min === null ? align : Math.min(min, align);
  }
  return { bits: is64 ? 64 : 32, machine, minLoadAlign: min };
}
