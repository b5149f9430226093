/**
 * The two defences against zip bombs that per-entry caps do not give.
 *
 * 1. **Overlapping entries.** The "non-recursive zip bomb" points many central directory records
 *    at one local record (or nests records inside each other's data), so a small file holds
 *    thousands of entries that each inflate one large stream: every entry is under its cap, the
 *    total is not. Build tools never write two records that share a byte, and Info-ZIP UnZip
 *    refuses such archives since that bomb was published (CVE-2019-13232); Android's own zip reader
 *    (libziparchive) refuses entry data that runs into the central directory. We refuse both:
 *    each record [local header offset, + local header + name + compressed size) must end at or
 *    before the next record's local header, and the last one before the central directory.
 *    yauzl (our inflater) has no such check — it reads the entry it is asked for, wherever it is.
 *    At open the record's least extent is checked (30-byte header, the central directory's name
 *    length, the data); when an entry is read, the real one (the local extra field is known then).
 *
 * 2. **A total.** Without overlap, deflate still inflates up to ~1,000× (a 1 MiB file of deflated
 *    zeros is 1 GiB), so what one APK may make us inflate is capped: {@link MAX_INFLATED_BYTES}
 *    (docs/preflight.md#limits). Readers that inflate many entries in one pass (the dex scan, v1
 *    digests) ask {@link InflateBudget.reserve} for their declared sizes first, so a file over the
 *    limit is refused before anything is inflated; every inflated byte is also counted as it comes
 *    (yauzl's `validateEntrySizes` keeps an entry to its declared size).
 */
import { ApkError } from './apk-error.js';
import type { ZipEntry } from './zip-entry.js';

/**
 * The most one APK may make us inflate, in bytes: its manifest, resources, dex files, native-lib
 * headers, and — only for an APK signed with v1 alone — every entry. Real APKs use a small part of it.
 */
export const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;

const LIMITS_DOC = 'docs/preflight.md#limits';

/** The record of an entry as the central directory gives it, with the raw length of its name. */
export type EntryRecord = { entry: ZipEntry; nameLength: number };

/**
 * Refuses records that share bytes with each other or with the central directory (at
 * `centralDirectoryOffset`), and sets each entry's `recordLimit`: where its record must end.
 */
export function checkNoOverlap(records: EntryRecord[], centralDirectoryOffset: number): void {
  const sorted = [...records].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  for (let i = 0; i < sorted.length; i++) {
    const { entry, nameLength } = sorted[i]!;
    const next = sorted[i + 1]?.entry;
    entry.recordLimit = next ? next.relativeOffsetOfLocalHeader : centralDirectoryOffset;
    const leastEnd = entry.relativeOffsetOfLocalHeader + 30 + nameLength + entry.compressedSize;
    if (leastEnd > entry.recordLimit) throw overlapError(entry, leastEnd, next);
  }
}

/** The error for an entry whose record, ending at `end`, runs into `next`'s record (or the central directory). */
export function overlapError(entry: ZipEntry, end: number, next: ZipEntry | undefined): ApkError {
  const into = next
    ? `the record of ${next.fileName} at byte ${next.relativeOffsetOfLocalHeader}`
    : `the central directory at byte ${entry.recordLimit}`;
  return new ApkError(
    `zip entries overlap: the record of ${entry.fileName} (bytes ${entry.relativeOffsetOfLocalHeader} to ${end}) runs into ${into}; shared bytes are how a small file inflates to gigabytes, a zip bomb`,
    {
      hint: 'Build tools never write overlapping entries: rebuild the APK, or download it again from a source you trust.',
      details: {
        problem: 'ZIP_ENTRIES_OVERLAP',
        entry: entry.fileName,
        overlaps: next ? next.fileName : 'central directory',
      },
    },
  );
}

/** A zip bomb is refused as such (INVALID_APK), never reported as a bad signature or a bad library. */
export function isZipBomb(err: unknown): boolean {
  const problem = err instanceof ApkError ? err.details?.problem : undefined;
  return problem === 'ZIP_ENTRIES_OVERLAP' || problem === 'INFLATE_LIMIT';
}

/** Counts what one zip has inflated, against a limit. */
export class InflateBudget {
  private inflated = 0;

  constructor(readonly limit: number = MAX_INFLATED_BYTES) {}

  /**
   * Refuses, before inflating any of them, a pass over `entries` (`what`: "the dex files") whose
   * deflated entries declare more than is left. An entry counts up to `perEntryCap`, the most the
   * pass reads of one (beyond it the entry is refused on its own). Stored entries are read as they
   * lie in the file and do not count.
   */
  reserve(entries: Iterable<ZipEntry>, what: string, perEntryCap = Number.MAX_SAFE_INTEGER): void {
    let declared = 0;
    let count = 0;
    for (const e of entries) {
      if (e.compressionMethod === 0) continue;
      declared += Math.min(e.uncompressedSize, perEntryCap);
      count++;
    }
    if (this.inflated + declared > this.limit)
      throw this.overError(
        `${what} would inflate to ${declared} bytes (${count} deflated ${count === 1 ? 'entry' : 'entries'}); with the ${this.inflated} bytes already inflated`,
        declared,
      );
  }

  /** Counts `n` more inflated bytes of `entry`; refuses when the total passes the limit. */
  add(entry: ZipEntry, n: number): void {
    this.inflated += n;
    if (this.inflated > this.limit)
      throw this.overError(`reading ${entry.fileName} has inflated ${this.inflated} bytes from this file`);
  }

  private overError(what: string, declared?: number): ApkError {
    return new ApkError(
      `${what}, that is over the ${this.limit}-byte limit for one file (${LIMITS_DOC}): a zip bomb or a damaged file`,
      {
        hint:
          'Real APKs inflate far less of what is read (manifest, resources, dex): rebuild this one. An APK signed with v1 ' +
          'alone has every entry inflated to check its digests: if it is a large real app, sign it with v2 as well (apksigner).',
        details: {
          problem: 'INFLATE_LIMIT',
          limit_bytes: this.limit,
          used_bytes: this.inflated,
          ...(declared === undefined ? {} : { declared_bytes: declared }),
        },
      },
    );
  }
}
