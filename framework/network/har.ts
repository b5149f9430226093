import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../../device-runtime/protocol/index.js';
import type { ApiCall } from '../core/api-call.js';
import { HarZip, MAX_HAR_INFLATED_BYTES } from './har-zip.js';

/**
 * HAR 1.2 (the W3C draft every browser's DevTools writes), read for `app.routeFromHAR()`, as
 * Playwright reads it: a `.har` file whose bodies are in it (`content.text`) or in files beside it
 * (`content._file`, Playwright's `content: 'attach'`), or a `.zip` archive holding the HAR and its
 * bodies. Matching is har-match.ts, answering har-replay.ts, writing har-write.ts.
 *
 * A HAR holds what the app sent and got, its Authorization and Cookie headers included (as
 * Playwright's do), so the files are written for the user alone (0600), and `redact` names headers
 * whose values are left out: such a header stays, by name, with the value {@link REDACTED}, and a
 * replay does not serve it.
 */

/** The value a redacted header has in a HAR. */
export const REDACTED = '[redacted]';

const NameValue = z.object({ name: z.string(), value: z.string() });
/** A body: in the HAR (`text`, base64 when `encoding` says so) or stored beside it (`_file`). */
const BodySchema = z.object({
  mimeType: z.string().optional(),
  text: z.string().optional(),
  encoding: z.string().optional(),
  _file: z.string().optional(),
});
const HarEntrySchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.string().url(),
    headers: z.array(NameValue).optional(),
    postData: BodySchema.optional(),
  }),
  response: z.object({
    status: z.number().int(),
    statusText: z.string().optional(),
    headers: z.array(NameValue),
    content: BodySchema,
  }),
});
const HarSchema = z.object({ log: z.object({ entries: z.array(HarEntrySchema) }) });
export type HarEntry = z.infer<typeof HarEntrySchema>;
type Body = z.infer<typeof BodySchema>;

/** A HAR open for replay: its entries and the bodies they keep. */
export interface HarFile {
  readonly entries: readonly HarEntry[];
  /** What was wrong with a HAR opened `tolerant`ly (it then has no entries), or null. */
  readonly problem: string | null;
  /** A body's bytes, wherever the HAR keeps it. */
  body(b: Body): Promise<Buffer>;
  close(): void;
}

const RECORD_FIRST = 'record it first with app.routeFromHAR(path, { update: true }) or use.recordHar';

/**
 * Opens the HAR at `path` (`.zip`: an archive) and checks it; a HAR_INVALID error names the
 * problem. `tolerant` (Playwright's `notFound: 'fallback'`): a file that is JSON but not a HAR
 * opens with no entries, its {@link HarFile.problem} said, so every request falls through.
 */
export async function openHar(call: ApiCall, path: string, tolerant = false): Promise<HarFile> {
  const invalid = (message: string) => call.error(message, { code: 'HAR_INVALID' });
  let zip: HarZip | null = null;
  let text: string;
  if (path.endsWith('.zip')) {
    try {
      zip = await HarZip.open(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw invalid(`cannot open ${path} as a HAR archive: ${(e as Error).message}${code ? `; ${RECORD_FIRST}` : ''}`);
    }
    const name = zip.names().find((n) => n.endsWith('.har'));
    try {
      if (!name) throw new Error('it has no .har file (a HAR archive holds har.har and the bodies it names)');
      text = (await zip.read(name)).toString('utf8');
    } catch (e) {
      zip.close();
      throw invalid(`cannot read ${path}: ${(e as Error).message}`);
    }
  } else {
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      throw invalid(
        `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ${RECORD_FIRST}`,
      );
    }
  }
  try {
    return parse(path, text, zip, tolerant, invalid);
  } catch (e) {
    zip?.close();
    throw e;
  }
}

function parse(
  path: string,
  text: string,
  zip: HarZip | null,
  tolerant: boolean,
  invalid: (message: string) => Error,
): HarFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalid(
      `${path} is not JSON (${(e as Error).message}): a HAR file is the JSON DevTools and Playwright write`,
    );
  }
  const parsed = HarSchema.safeParse(json);
  let problem: string | null = null;
  if (!parsed.success) {
    problem = `${path} is not a HAR file: ${describeIssues(parsed.error, 'har')}`;
    if (!tolerant) throw invalid(problem);
  }
  const entries = parsed.success ? parsed.data.log.entries : [];
  const base = dirname(path);
  if (!zip) {
    // A body beside the HAR is read from the HAR's folder, never from elsewhere.
    for (const [i, e] of entries.entries())
      for (const file of [e.request.postData?._file, e.response.content._file])
        if (file !== undefined && !inside(base, file))
          throw invalid(
            `har.log.entries[${i}]: _file ${JSON.stringify(file)} is outside the HAR's folder ${base}; bodies are stored beside the HAR`,
          );
  }
  return {
    entries,
    problem,
    body: (b) =>
      b._file === undefined ? Promise.resolve(inline(b)) : zip ? zip.read(b._file) : readBeside(base, b._file),
    close: () => zip?.close(),
  };
}

function inline(b: Body): Buffer {
  return Buffer.from(b.text ?? '', b.encoding === 'base64' ? 'base64' : 'utf8');
}

function inside(base: string, file: string): boolean {
  const rel = relative(base, resolve(base, file));
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function readBeside(base: string, file: string): Promise<Buffer> {
  const path = resolve(base, file);
  if ((await stat(path)).size > MAX_HAR_INFLATED_BYTES)
    throw new Error(`${path} is over ${MAX_HAR_INFLATED_BYTES} bytes, the most a HAR body may be`);
  return readFile(path);
}
