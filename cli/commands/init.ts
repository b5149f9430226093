/**
 * `nestwright init [--force] [--json]`: set up nestwright in the project in the current directory
 * (empty or existing): a playwright.config.ts, an example spec against the sample Notes app, the
 * sample apps' APKs (Notes, Shop, Chat) where the docs name them, `test`/`test:report` scripts in
 * package.json and .gitignore lines. An existing file or script that differs is left alone unless
 * --force; .gitignore only gains lines. Everything is checked before anything is written, so bad
 * input (an unreadable package.json) changes nothing.
 * Exit code: 0 done (also when everything was skipped), 1 could not write, 2 usage or bad input.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG, CONFIG_FILE, GITIGNORE, SAMPLE_APKS, SCRIPTS, SPEC, SPEC_FILE } from './init-templates.js';

export type InitIo = { out: (text: string) => void; err: (text: string) => void; cwd: string };
const stdio: InitIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: process.cwd() };

export interface InitStep {
  path: string;
  status: 'wrote' | 'overwrote' | 'updated' | 'unchanged' | 'skipped';
  detail: string;
}
export interface InitError {
  code: 'USAGE' | 'INVALID_PACKAGE_JSON' | 'NOT_A_DIRECTORY' | 'SAMPLE_MISSING' | 'WRITE_FAILED';
  message: string;
  hint: string | null;
}

const USAGE = `Usage: nestwright init [--force] [--json]

Sets up nestwright in the project in the current directory:
${[
  [CONFIG_FILE, 'the embedded simulated device and the Allure reporter'],
  [SPEC_FILE, 'an example spec against the sample Notes app'],
  ...SAMPLE_APKS.map((a) => [a.file, a.what.replace(/ \(.*/, '')]),
  ['package.json', '"test" and "test:report" scripts (package.json is created if missing)'],
  ['.gitignore', 'test output directories'],
]
  .map(([f, what]) => `  ${f!.padEnd(26)}${what}`)
  .join('\n')}

  --force   overwrite files and scripts that differ (otherwise they are kept and listed as skipped)
  --json    print what was done as JSON

Then: npx playwright test
`;

class InitFailure extends Error {
  constructor(readonly error: InitError) {
    super(error.message);
  }
}
const fail = (code: InitError['code'], message: string, hint: string | null = null): never => {
  throw new InitFailure({ code, message, hint });
};

export async function initCommand(argv: string[], io: InitIo = stdio): Promise<number> {
  let json = argv.includes('--json');
  try {
    const { values, positionals } = parseOrFail(argv);
    json = values.json;
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    if (positionals.length)
      fail(
        'USAGE',
        `unexpected argument "${positionals[0]}"`,
        'init sets up the current directory: cd into the project and run `npx nestwright init`.',
      );
    const steps = await init(io.cwd, values.force);
    if (json) io.out(`${JSON.stringify({ ok: true, steps }, null, 2)}\n`);
    else io.out(summary(steps));
    return 0;
  } catch (e) {
    const error: InitError =
      e instanceof InitFailure
        ? e.error
        : {
            code: 'WRITE_FAILED',
            message: (e as Error).message,
            hint: 'Check the permissions of the project directory.',
          };
    if (json) io.out(`${JSON.stringify({ ok: false, error }, null, 2)}\n`);
    else
      io.err(
        `nestwright init: ${error.code}: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}\n${error.code === 'USAGE' ? `\n${USAGE}` : ''}`,
      );
    return error.code === 'WRITE_FAILED' || error.code === 'SAMPLE_MISSING' ? 1 : 2;
  }
}

function parseOrFail(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        force: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    return fail('USAGE', (e as Error).message);
  }
}

/** Plan every step (reading only), then write. Returns what was done, one step per target. */
async function init(root: string, force: boolean): Promise<InitStep[]> {
  if (!existsSync(root) || !statSync(root).isDirectory()) fail('NOT_A_DIRECTORY', `${root} is not a directory`);
  const pkg = readPackageJson(root);
  const apks = SAMPLE_APKS.map((a) => ({ ...a, body: sampleApk(a.file) }));
  const writes: Array<{ path: string; body: string | Buffer }> = [];
  const steps: InitStep[] = [];

  const file = (path: string, body: string | Buffer, what: string) => {
    const target = join(root, path);
    if (!existsSync(target)) {
      writes.push({ path, body });
      return steps.push({ path, status: 'wrote', detail: what });
    }
    if (readFileSync(target).equals(Buffer.from(body))) return steps.push({ path, status: 'unchanged', detail: what });
    if (force) {
      writes.push({ path, body });
      return steps.push({ path, status: 'overwrote', detail: what });
    }
    return steps.push({ path, status: 'skipped', detail: `exists and differs: kept (--force overwrites it)` });
  };
  file(CONFIG_FILE, CONFIG, 'the embedded simulated device and the Allure reporter');
  file(SPEC_FILE, SPEC, 'an example spec against the sample Notes app');
  for (const a of apks) file(a.file, a.body, a.what);

  // package.json: add the scripts; a different script of the same name stays unless --force.
  const scripts: Record<string, string> = { ...(pkg.data.scripts as Record<string, string> | undefined) };
  const added: string[] = [];
  for (const [name, command] of Object.entries(SCRIPTS)) {
    if (scripts[name] === command) continue;
    if (scripts[name] !== undefined && !force) {
      steps.push({
        path: 'package.json',
        status: 'skipped',
        detail: `script "${name}" is "${scripts[name]}": kept (--force replaces it with "${command}")`,
      });
      continue;
    }
    scripts[name] = command;
    added.push(name);
  }
  if (!pkg.exists || added.length) {
    const data = pkg.exists
      ? { ...pkg.data, scripts }
      : { name: packageName(root), version: '0.0.0', private: true, scripts };
    writes.push({ path: 'package.json', body: `${JSON.stringify(data, null, pkg.indent)}\n` });
    steps.push({
      path: 'package.json',
      status: pkg.exists ? 'updated' : 'wrote',
      detail: `scripts ${added.map((s) => `"${s}"`).join(', ')}`,
    });
  } else if (!steps.some((s) => s.path === 'package.json')) {
    steps.push({ path: 'package.json', status: 'unchanged', detail: 'scripts already there' });
  }

  // .gitignore: only ever gains lines.
  const ignorePath = join(root, '.gitignore');
  const ignore = existsSync(ignorePath) ? readFileSync(ignorePath, 'utf8') : '';
  const have = new Set(ignore.split(/\r?\n/).map((l) => l.trim().replace(/^\//, '')));
  const missing = GITIGNORE.filter((l) => !have.has(l) && !have.has(l.replace(/\/$/, '')));
  if (missing.length) {
    const sep = ignore === '' ? '' : ignore.endsWith('\n') ? '\n' : '\n\n';
    writes.push({ path: '.gitignore', body: `${ignore}${sep}# nestwright test output\n${missing.join('\n')}\n` });
    steps.push({ path: '.gitignore', status: ignore ? 'updated' : 'wrote', detail: missing.join(' ') });
  } else {
    steps.push({ path: '.gitignore', status: 'unchanged', detail: 'already ignores the test output' });
  }

  for (const w of writes) {
    try {
      await mkdir(dirname(join(root, w.path)), { recursive: true });
      await writeFile(join(root, w.path), w.body);
    } catch (e) {
      fail(
        'WRITE_FAILED',
        `${w.path}: ${(e as Error).message}`,
        'Check the permissions of the project directory; files listed before it were written.',
      );
    }
  }
  return steps;
}

function readPackageJson(root: string): { exists: boolean; data: Record<string, unknown>; indent: string | number } {
  const path = join(root, 'package.json');
  if (!existsSync(path)) return { exists: false, data: {}, indent: 2 };
  const text = readFileSync(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail(
      'INVALID_PACKAGE_JSON',
      `package.json is not valid JSON: ${(e as Error).message}`,
      'Fix package.json (or move it away) and run init again; nothing was written.',
    );
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    fail('INVALID_PACKAGE_JSON', 'package.json is not a JSON object', 'Nothing was written.');
  const scripts = (data as { scripts?: unknown }).scripts;
  if (scripts !== undefined && (!scripts || typeof scripts !== 'object' || Array.isArray(scripts))) {
    fail(
      'INVALID_PACKAGE_JSON',
      'package.json "scripts" is not an object',
      'Make "scripts" an object of name → command; nothing was written.',
    );
  }
  return { exists: true, data: data as Record<string, unknown>, indent: /^\{\s*\n(\s+)"/.exec(text)?.[1] ?? 2 };
}

/** A sample APK as shipped in the package, at the same path (found by the package's own name: same from cli/ and dist/cli/). */
function sampleApk(file: string): Buffer {
  const root = dirname(createRequire(import.meta.url).resolve('nestwright/package.json'));
  const path = join(root, file);
  if (!existsSync(path))
    fail(
      'SAMPLE_MISSING',
      `the sample app is missing from the nestwright package (${path})`,
      'Reinstall nestwright: npm i -D nestwright',
    );
  return readFileSync(path);
}

/** A valid npm name from the directory's name. */
function packageName(root: string): string {
  return (
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+/, '') || 'android-tests'
  );
}

function summary(steps: InitStep[]): string {
  const width = Math.max(...steps.map((s) => s.status.length));
  const pathWidth = Math.max(...steps.map((s) => s.path.length));
  const lines = steps.map((s) => `  ${s.status.padEnd(width)}  ${s.path.padEnd(pathWidth)}  ${s.detail}`);
  const skipped = steps.some((s) => s.status === 'skipped');
  return [
    'nestwright init:',
    ...lines,
    '',
    ...(skipped
      ? ['Some files or scripts were kept as they were (see "skipped"); run with --force to replace them.', '']
      : []),
    'Next: npx playwright test        (the example spec, on the embedded simulated device)',
    '      npm run test:report       (the Allure HTML report; needs Java)',
    '',
  ].join('\n');
}
