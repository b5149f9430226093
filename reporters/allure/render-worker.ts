import { parentPort } from 'node:worker_threads';
import { renderScreenshot, type RenderOptions } from './render.js';

/** The screenshot renderer's thread: one job at a time, PNG in, PNG out (transferred, not copied). */
parentPort!.on('message', (job: { id: number; png: Uint8Array; opts: RenderOptions }) => {
  try {
    const out = renderScreenshot(Buffer.from(job.png.buffer, job.png.byteOffset, job.png.byteLength), job.opts);
    const copy = new Uint8Array(out);
    parentPort!.postMessage({ id: job.id, png: copy }, [copy.buffer]);
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: String((e as Error).message ?? e) });
  }
});
