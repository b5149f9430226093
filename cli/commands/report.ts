/**
 * `nestwright report [--results DIR]... [--output DIR] [--open] [--port N] [--single-file] [--name N]`
 *
 * Generates the Allure 2 HTML report from allure-results with allure-commandline (Java), and with
 * --open serves it and opens a browser. Several --results directories (one per shard) are merged
 * into one report. Exit code: 0 generated, 1 failed (no results, no Java, Allure failed), 2 usage.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export type ReportIo = { out: (text: string) => void; err: (text: string) => void };
const stdio: ReportIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

const USAGE = `Usage: nestwright report [--results DIR]... [--output DIR] [--open] [--port N] [--single-file] [--name NAME]

  --results      allure-results directory; repeat it to merge shards (default allure-results)
  --output       where to write the HTML report (default allure-report)
  --open         serve the report and open it in a browser (Ctrl+C to stop)
  --port         port for --open (default: a free one)
  --single-file  write one self-contained index.html (opens from disk, no server needed)
  --name         the report's title

Needs Java 8+ (Allure 2 is a Java program). Exit code: 0 generated, 1 failed, 2 usage error.
`;

export async function reportCommand(argv: string[], io: ReportIo = stdio): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        results: { type: 'string', multiple: true },
        output: { type: 'string', default: 'allure-report' },
        open: { type: 'boolean', default: false },
        port: { type: 'string' },
        'single-file': { type: 'boolean', default: false },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    io.err(`report: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) {
    io.err(`report: --port must be a number such as 4040 (got "${values.port}")\n`);
    return 2;
  }
  const results = (values.results ?? ['allure-results']).map((d) => resolve(d));
  const missing = results.find((dir) => !existsSync(dir));
  if (missing) {
    io.err(
      `report: ${missing} does not exist. Pass the allure-results directory the reporter wrote (--results DIR).\n`,
    );
    return 1;
  }
  // A shard may have run no test, and a directory may carry only history/: one with results is enough.
  if (!results.some((dir) => readdirSync(dir).some((f) => f.endsWith('-result.json')))) {
    io.err(
      `report: no Allure results in ${results.join(', ')}. Add the reporter to playwright.config.ts ` +
        `(reporter: [['list'], ['nestwright/reporters/allure']]) and run the tests first.\n`,
    );
    return 1;
  }
  if (!hasJava()) {
    io.err(
      'report: Allure 2 needs Java 8 or newer and no `java` was found. Install one (Debian: apt-get install default-jre-headless) or set JAVA_HOME.\n',
    );
    return 1;
  }
  const allure = allureBin();
  const output = resolve(values.output);
  const generate = [
    'generate',
    '--clean',
    ...results,
    '-o',
    output,
    ...(values['single-file'] ? ['--single-file'] : []),
    ...(values.name ? ['--name', values.name] : []),
  ];
  const code = await run(allure, generate, io);
  if (code !== 0) {
    io.err(`report: allure generate exited with ${code}\n`);
    return 1;
  }
  io.out(`report: ${join(output, 'index.html')}\n`);
  if (!values.open) return 0;
  return run(allure, ['open', output, ...(values.port ? ['--port', values.port] : [])], io);
}

/** allure-commandline's launcher script (bundled Allure 2 distribution). */
export function allureBin(): string {
  const pkg = createRequire(import.meta.url).resolve('allure-commandline/package.json');
  return join(dirname(pkg), 'dist', 'bin', process.platform === 'win32' ? 'allure.bat' : 'allure');
}

function hasJava(): boolean {
  if (process.env.JAVA_HOME && existsSync(join(process.env.JAVA_HOME, 'bin', 'java'))) return true;
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

function run(cmd: string, args: string[], io: ReportIo): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    child.stdout.on('data', (d: Buffer) => io.out(d.toString()));
    child.stderr.on('data', (d: Buffer) => io.err(d.toString()));
    child.on('error', (e) => {
      io.err(`report: could not run ${cmd}: ${e.message}\n`);
      resolvePromise(1);
    });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
  });
}
