import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attachment } from 'allure-js-commons';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/json': 'json',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/html': 'html',
  'video/webm': 'webm',
  'text/vtt': 'vtt',
  // Allure's screen-diff view reads its JSON from an .imagediff file.
  'application/vnd.allure.image.diff': 'imagediff',
};

const PRIVATE = (name: string) => name.toLowerCase().endsWith('.har');

/**
 * Content-addressed attachment files in an allure-results directory: a body is stored once under
 * the sha256 of its bytes, however many steps, tests or shards refer to it. Shard directories can
 * therefore be copied into one without clashes, and a suite that sees the same screen a thousand
 * times stores it once. Cost: one hash per put; a write only for bytes not seen before.
 * A HAR (`*.har`: every header the app sent, `Authorization` and `Cookie` included) is written
 * readable by its owner alone (0600), as nestwright writes the HAR it attaches (docs/security.md).
 */
export class ContentStore {
  private readonly known = new Set<string>();
  bytesWritten = 0;
  filesWritten = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  put(name: string, contentType: string, body: Buffer | string): Attachment {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const hash = createHash('sha256').update(bytes).digest('hex');
    const source = `${hash}-attachment.${EXTENSIONS[contentType] ?? 'bin'}`;
    if (!this.known.has(source)) {
      this.known.add(source);
      const file = join(this.dir, source);
      if (!existsSync(file)) {
        writeFileSync(file, bytes, { mode: PRIVATE(name) ? 0o600 : 0o666 });
        this.bytesWritten += bytes.length;
        this.filesWritten++;
      }
    }
    if (PRIVATE(name)) chmodSync(join(this.dir, source), 0o600); // the same bytes, stored before under another name
    return { name, type: contentType, source };
  }

  json(name: string, value: unknown): Attachment {
    return this.put(name, 'application/json', JSON.stringify(value, null, 2));
  }

  text(name: string, value: string): Attachment {
    return this.put(name, 'text/plain', value);
  }
}
