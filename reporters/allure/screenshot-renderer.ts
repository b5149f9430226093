import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Attachment } from 'allure-js-commons';
import { COMPILED, ownModule } from '../../framework/core/package-root.js';
import { RENDER_VERSION, renderScreenshot, type Bounds, type RenderOptions } from './render.js';

/**
 * Screenshots for the report, highlighted and scaled on a worker thread so the runner's main
 * thread (which dispatches tests) is never blocked by PNG work. Each file is named by what it is
 * rendered from — the sha256 of the screenshot's bytes, the target's bounds and the render
 * settings — so the name is known at once (the test's result is written without waiting) and an
 * identical screenshot with the same target is rendered and stored once, across tests and shards.
 * `drain()` (from the reporter's onEnd) waits for every file to be written.
 */
export class ScreenshotRenderer {
  private worker: Worker | null | undefined;
  private readonly waiting = new Map<
    number,
    { png: Buffer; opts: RenderOptions; resolve: (b: Buffer) => void; reject: (e: Error) => void }
  >();
  private readonly jobs: Promise<void>[] = [];
  private readonly known = new Set<string>();
  private nextId = 0;
  readonly failures: string[] = [];

  constructor(
    readonly dir: string,
    readonly maxWidth: number,
  ) {}

  put(name: string, png: Buffer, bounds: Bounds | readonly Bounds[] | null, screenWidth?: number): Attachment {
    const opts: RenderOptions = { bounds, ...(screenWidth ? { screenWidth } : {}), maxWidth: this.maxWidth };
    const key = createHash('sha256')
      .update(png)
      .update(JSON.stringify([RENDER_VERSION, bounds, screenWidth ?? null, this.maxWidth]))
      .digest('hex');
    const source = `${key}-attachment.png`;
    if (!this.known.has(source)) {
      this.known.add(source);
      const file = join(this.dir, source);
      if (!existsSync(file)) {
        this.jobs.push(
          this.render(png, opts)
            .catch((e: Error) => {
              this.failures.push(`${name}: ${e.message}`);
              return png; // shown as taken rather than not at all
            })
            .then((out) => writeFile(file, out))
            .catch((e: Error) => void this.failures.push(`${name}: ${e.message}`)),
        );
      }
    }
    return { name, type: 'image/png', source };
  }

  /** Wait until every screenshot is written, then stop the thread. */
  async drain(): Promise<void> {
    while (this.jobs.length) await Promise.all(this.jobs.splice(0));
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private render(png: Buffer, opts: RenderOptions): Promise<Buffer> {
    const worker = this.thread();
    if (!worker) return new Promise((resolve) => setImmediate(() => resolve(renderScreenshot(png, opts))));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { png, opts, resolve, reject });
      worker.postMessage({ id, png: new Uint8Array(png), opts });
    });
  }

  /** The worker, started on first use; null when it cannot start (then work runs inline). */
  private thread(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    try {
      const worker = startWorker();
      worker.on('message', (m: { id: number; png?: Uint8Array; error?: string }) => {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.png) w?.resolve(Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength));
        else w?.reject(new Error(m.error ?? 'render failed'));
      });
      worker.on('error', () => {
        // The thread died: render what it had on this one, and everything after it too.
        this.worker = null;
        for (const w of this.waiting.values()) {
          try {
            w.resolve(renderScreenshot(w.png, w.opts));
          } catch (e) {
            w.reject(e as Error);
          }
        }
        this.waiting.clear();
      });
      this.worker = worker;
    } catch {
      this.worker = null;
    }
    return this.worker;
  }
}

/**
 * The render thread. Compiled (the published package) it is plain `render-worker.js` beside this
 * file. Run from the TypeScript sources (this repository: Playwright's own loader, merge-reports,
 * tsx) the worker is TypeScript too, and a worker thread does not inherit the parent's loader, so
 * it registers tsx (a devDependency) before importing `render-worker.ts`.
 */
function startWorker(): Worker {
  const worker = ownModule('reporters/allure/render-worker');
  if (COMPILED) return new Worker(worker);
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const script = pathToFileURL(worker).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(script)}); })`,
    { eval: true },
  );
}

/** tsx's ESM register API (the `import` entry of `tsx/esm/api`; require.resolve would give the CJS one). */
function tsxEsmApi(): string {
  const pkgJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return join(dirname(pkgJson), pkg.exports['./esm/api']!.import.default);
}
