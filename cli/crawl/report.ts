/**
 * What a crawl leaves in its folder: `crawl.json` (for tools), `index.html` (the app map),
 * `screens/<id>.png`, `crashes/<n>.log` (each crash's instance log) and `suite/crawl.spec.ts`
 * (the suite). Written for the user alone (0600 files, 0700 folders): a log may hold what the app
 * printed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mapPage } from './map-page.js';
import type { CrawlResult } from './model.js';
import { writeSuite } from './suite.js';

export interface WrittenCrawl {
  json: string;
  map: string;
  suite: string;
}

export function writeCrawl(out: string, result: CrawlResult, pictures: Map<string, Buffer>): WrittenCrawl {
  const dir = path.resolve(out);
  for (const d of [dir, path.join(dir, 'screens'), path.join(dir, 'crashes'), path.join(dir, 'suite')])
    mkdirSync(d, { recursive: true, mode: 0o700 });
  const file = (p: string, body: string | Buffer) => writeFileSync(path.join(dir, p), body, { mode: 0o600 });
  for (const [id, png] of pictures) file(`screens/${id}.png`, png);
  for (const c of result.crashes) file(`crashes/${c.id.replace(':', '-')}.log`, `${c.reason}\n\n${c.log.join('\n')}\n`);
  file('crawl.json', `${JSON.stringify(result, null, 2)}\n`);
  file('index.html', mapPage(result));
  // The suite names the app as the crawl did: the APK relative to the project (where its config is, from
  // which `use.apk` is resolved), or the package.
  const apk = result.app.apk ? path.relative(process.cwd(), path.resolve(result.app.apk)) : result.app.package;
  file('suite/crawl.spec.ts', writeSuite(result, apk.split(path.sep).join('/')));
  return {
    json: path.join(dir, 'crawl.json'),
    map: path.join(dir, 'index.html'),
    suite: path.join(dir, 'suite', 'crawl.spec.ts'),
  };
}
