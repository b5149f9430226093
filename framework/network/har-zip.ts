import type { FileHandle } from 'node:fs/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

/**
 * HAR archives (`.zip`), Playwright's layout: the HAR as `har.har` and each body it attaches
 * (`content._file`) as an entry beside it. yauzl reads them (as it reads APKs), yazl writes them
 * (its counterpart, by the same author).
 *
 * A HAR archive is the user's input as much as an APK is, and bounded the same way
 * (docs/preflight.md#limits): at most {@link MAX_HAR_ZIP_ENTRIES} entries, and what one archive
 * may inflate, {@link MAX_HAR_INFLATED_BYTES}, is checked against the sizes its central directory
 * declares before anything is inflated — the "non-recursive" bomb, whose entries all point at one
 * stream of zeros, declares each entry's full size, so its total is over the limit at once. yauzl's
 * `validateEntrySizes` holds every entry to its declared size, and the bytes are counted as they
 * come as well.
 */

/** As many entries as an APK may have. */
export const MAX_HAR_ZIP_ENTRIES = 200_000;
/** What one HAR archive may inflate in all, as one APK (docs/preflight.md#limits). */
export const MAX_HAR_INFLATED_BYTES = 1024 * 1024 * 1024;

/** An archive refused or unreadable: the message says why. */
export class HarZipError extends Error {}

/** A HAR archive open for reading: its entries by name, each inflated at most once. */
export class HarZip {
  private inflated = 0;
  private closed = false;
  private readonly cache = new Map<string, Promise<Buffer>>();

  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  /** Opens `path`, reading its central directory only; refuses an archive over the limits. */
  static async open(path: string): Promise<HarZip> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
    } catch (e) {
      // A file that is not there (or not readable) says so, with its code; anything else is not a zip.
      if ((e as NodeJS.ErrnoException).code) throw e;
      throw new HarZipError(`not a zip archive (${(e as Error).message})`);
    }
    try {
      if (zip.entryCount > MAX_HAR_ZIP_ENTRIES)
        throw new HarZipError(`it declares ${zip.entryCount} entries, over the limit of ${MAX_HAR_ZIP_ENTRIES}`);
      const entries = new Map<string, yauzl.Entry>();
      let declared = 0;
      for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
        declared += entry.uncompressedSize;
        if (declared > MAX_HAR_INFLATED_BYTES)
          throw new HarZipError(
            `its entries declare more than ${MAX_HAR_INFLATED_BYTES} bytes inflated (the limit for one archive, docs/preflight.md#limits): a zip bomb or a damaged file`,
          );
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      }
      return new HarZip(zip, entries);
    } catch (e) {
      zip.close();
      throw e instanceof HarZipError ? e : new HarZipError((e as Error).message);
    }
  }

  /** The entry names, in the archive's order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** One entry, inflated (once; later reads get the same bytes). */
  read(name: string): Promise<Buffer> {
    let data = this.cache.get(name);
    if (!data) {
      data = this.inflate(name);
      this.cache.set(name, data);
    }
    return data;
  }

  private async inflate(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new HarZipError(`the archive has no entry ${JSON.stringify(name)}`);
    const chunks: Buffer[] = [];
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.inflated += chunk.length;
        if (this.inflated > MAX_HAR_INFLATED_BYTES) {
          stream.destroy();
          throw new HarZipError(`reading ${name} took the archive past ${MAX_HAR_INFLATED_BYTES} bytes inflated`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      throw e instanceof HarZipError ? e : new HarZipError(`cannot read ${name}: ${(e as Error).message}`);
    }
    return Buffer.concat(chunks);
  }

  /** Closes the file (once; again is a no-op). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.zip.close();
  }
}

/** Writes `entries` (name → bytes, deflated) as a zip archive to the open `file`. */
export async function writeZip(file: FileHandle, entries: ReadonlyMap<string, Buffer>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) await file.write(chunk);
}

/** The archive's next central directory record, or null after the last. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const off = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: yauzl.Entry) => (off(), resolve(e));
    const onEnd = () => (off(), resolve(null));
    const onError = (e: Error) => (off(), reject(e));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}
