/**
 * `nestwright show-crawl [dir] [--port N] [--no-open]`: serve a crawl's app map (cli/crawl/map-server.ts)
 * on 127.0.0.1 and open it. Exit code: 0 served until stopped, 2 bad input (no crawl there).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serveCrawl } from '../crawl/map-server.js';
import { openBrowser } from './codegen.js';
import { stdio, type Io } from './io.js';

const USAGE = `Usage: nestwright show-crawl [dir] [--port N] [--no-open]

  Serves the app map of a crawl (default folder crawl/) on 127.0.0.1 and opens it.
`;

export async function showCrawlCommand(argv: string[], io: Io = stdio, stop?: Promise<void>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { port: { type: 'string' }, 'no-open': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    io.err(`nestwright show-crawl: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) return (io.out(USAGE), 0);
  const dir = path.resolve(parsed.positionals[0] ?? 'crawl');
  if (!existsSync(path.join(dir, 'index.html'))) {
    io.err(
      `nestwright show-crawl: no app map in ${dir}; run \`npx nestwright crawl <app.apk> --out ${parsed.positionals[0] ?? 'crawl'}\` first\n`,
    );
    return 2;
  }
  const port = parsed.values.port === undefined ? 0 : Number(parsed.values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`nestwright show-crawl: --port ${parsed.values.port}: a port number 0-65535\n`);
    return 2;
  }
  const server = await serveCrawl(dir, port);
  io.out(`nestwright app map at ${server.url}\n(Ctrl-C to stop)\n`);
  if (!parsed.values['no-open']) openBrowser(server.url);
  await (stop ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }));
  await server.close();
  return 0;
}
