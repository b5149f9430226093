/**
 * Checks the shell blocks of the pages against what exists: every `nestwright` command and flag
 * against the CLI's own `--help` (top level for the commands, `nestwright <command> --help` for
 * its flags), `npx playwright` commands and flags against Playwright's `--help`, `npm run`
 * scripts against package.json, scripts run by path against the files, and environment
 * variables set in front of a command against the sources that read them. Anything else must be
 * a program the pages are about (adb, appium, …), listed in EXTERNAL.
 *
 * The command lines are split the way a reader sees them, not as a full shell parser would:
 * comments, `\` continuations, `&&`, `||`, `;` and `|`, quotes kept together. Usage brackets
 * (`[--app notes.apk]`) are read as the flags they name.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './api-examples.js';
import type { Block } from './doc-pages.js';

const run = promisify(execFile);

/** Programs the pages show that are not this package's: what each is for in them. */
export const EXTERNAL: Record<string, string> = {
  adb: 'Android Debug Bridge: forwarding a phone port',
  appium: 'the Appium 3 server and its driver install',
  claude: 'Claude Code: adding the MCP server',
  'apt-get': 'Debian packages: Java, Chromium',
  git: 'reviewing healed specs',
  cd: 'the shell: changing to a project folder',
  export: 'the shell: setting an environment variable',
};

const NPM_COMMANDS = new Set(['ci', 'i', 'install', 'test', 'pack', 'publish', 'run']);

/** One command of a block: where it is and its words. */
export interface Command {
  where: string;
  words: string[];
}

/** Split a block into commands: one per line (after `\` continuations), then on && || ; |. */
export function commandsOf(block: Block): Command[] {
  const out: Command[] = [];
  const lines = block.code.replace(/\\\n/g, ' ').split('\n');
  lines.forEach((line, i) => {
    const words = splitWords(line);
    let current: string[] = [];
    const flush = () => {
      if (current.length) out.push({ where: `${relative(ROOT, block.file)}:${block.line + i}`, words: current });
      current = [];
    };
    for (const w of words) {
      if (w === '#') break;
      if (['&&', '||', ';', '|'].includes(w)) flush();
      else current.push(w);
    }
    flush();
  });
  return out;
}

/** Words of a line, quotes kept together (and removed), a comment as the word `#`. */
function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | null = null;
  let started = false;
  const end = () => {
    if (started) words.push(word);
    word = '';
    started = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (/\s/.test(c)) end();
    else if (c === '#' && !started) {
      words.push('#');
      return words;
    } else if ((c === '&' || c === '|') && line[i + 1] === c) {
      end();
      words.push(c + c);
      i++;
    } else if (c === ';' || c === '|') {
      end();
      words.push(c);
    } else {
      word += c;
      started = true;
    }
  }
  end();
  return words;
}

/** `--flag` and `-o` words, as the option name alone (`--shard=1/3` → `--shard`), usage brackets removed. */
const flagsOf = (words: string[]) =>
  words
    .map((w) => w.replace(/^[[(|]+|[\])|.…]+$/g, ''))
    .filter((w) => /^--?[a-zA-Z]/.test(w))
    .map((w) => w.split('=')[0]!);

/** Whether a help text names a flag as an option (`--port`, `-o`), not as part of a longer one. */
const names = (help: string, flag: string) =>
  new RegExp(`(^|[\\s\\[(|,])${flag.replace(/[-]/g, '\\-')}(?![\\w-])`, 'm').test(help);

/** Text that environment variables are looked up in: the sources that read them. */
function sourceText(): string {
  const dirs = ['framework', 'device-runtime', 'cli', 'reporters', 'bin', 'ci'];
  return dirs
    .flatMap((d) =>
      readdirSync(join(ROOT, d), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(ts|js|mjs|sh|yml)$/.test(f) && !f.includes('node_modules'))
        .map((f) => join(ROOT, d, f)),
    )
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/**
 * The help texts the checks need, each asked for once. nestwright's are its CLI's own `main()`
 * run in this process with its output captured (one at a time, as the capture is global): the
 * same text `bin/nestwright.js` prints, without starting a process with a TypeScript loader for
 * each command. Playwright's come from its CLI.
 */
export class HelpTexts {
  private cache = new Map<string, Promise<string>>();
  private queue: Promise<unknown> = Promise.resolve();
  private once(key: string, make: () => Promise<string>): Promise<string> {
    let p = this.cache.get(key);
    if (!p) this.cache.set(key, (p = make()));
    return p;
  }
  nestwright(command?: string): Promise<string> {
    return this.once(`nestwright ${command ?? ''}`, () => {
      const next = this.queue.then(() => captured(command ? [command, '--help'] : ['--help']));
      this.queue = next.catch(() => {});
      return next;
    });
  }
  playwright(command?: string): Promise<string> {
    return this.once(`playwright ${command ?? ''}`, () =>
      run(
        process.execPath,
        [join(ROOT, 'node_modules/@playwright/test/cli.js'), ...(command ? [command, '--help'] : ['--help'])],
        { cwd: ROOT, timeout: 120_000 },
      ).then(
        (r) => r.stdout + r.stderr,
        (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
      ),
    );
  }
}

/** What `nestwright …argv` prints, on stdout and stderr. */
async function captured(argv: string[]): Promise<string> {
  const { main } = await import('../../cli/index.js');
  let text = '';
  const keep = { log: console.log, error: console.error, out: process.stdout.write, err: process.stderr.write };
  const take = (...args: unknown[]) => void (text += args.map(String).join(' ') + '\n');
  const write = (chunk: unknown) => ((text += String(chunk)), true);
  Object.assign(console, { log: take, error: take });
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  try {
    await main(argv);
  } finally {
    Object.assign(console, { log: keep.log, error: keep.error });
    process.stdout.write = keep.out;
    process.stderr.write = keep.err;
  }
  return text;
}

/** The commands a top-level help lists (`  name  summary` lines under `Commands:`). */
const commandsIn = (help: string) =>
  new Set([...(help.split(/Commands:/)[1]?.matchAll(/^ {2}([a-z][\w-]*)/gm) ?? [])].map((m) => m[1]!));

/** What is wrong with the commands of the pages' shell blocks, one line per problem. */
export async function shellProblems(commands: Command[], help = new HelpTexts()): Promise<string[]> {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  let sources: string | null = null;
  const problems: string[] = [];
  // Playwright's help texts in parallel up front; nestwright's are captured one at a time anyway.
  await Promise.all([help.playwright(), help.playwright('test'), help.playwright('merge-reports')]);
  for (const { where, words: all } of commands) {
    const words = [...all];
    while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
      const name = words.shift()!.split('=')[0]!;
      sources ??= sourceText();
      if (!sources.includes(name))
        problems.push(`${where}: the environment variable ${name} is read nowhere in the sources`);
    }
    if (words.length === 0) continue;
    let [head, ...rest] = words as [string, ...string[]];
    if (head === 'npx') [head, ...rest] = rest as [string, ...string[]];
    const line = `${where}: ${all.join(' ')}`;
    if (head === 'nestwright' || head === 'playwright') {
      const top = head === 'nestwright' ? await help.nestwright() : await help.playwright();
      const sub = rest[0];
      if (!sub || sub.startsWith('-')) {
        for (const f of flagsOf(rest)) if (!names(top, f)) problems.push(`${line}: ${head} has no option ${f}`);
        continue;
      }
      if (!commandsIn(top).has(sub)) {
        problems.push(`${line}: ${head} has no command "${sub}" (its --help lists ${[...commandsIn(top)].join(', ')})`);
        continue;
      }
      // `nestwright test` hands its arguments to `playwright test`.
      const own =
        head === 'nestwright' && sub === 'test'
          ? await help.playwright('test')
          : head === 'nestwright'
            ? await help.nestwright(sub)
            : await help.playwright(sub);
      for (const f of flagsOf(rest.slice(1)))
        if (!names(own, f)) problems.push(`${line}: \`${head} ${sub} --help\` lists no ${f}`);
    } else if (head === 'npm') {
      const [cmd, script] = rest;
      if (!cmd || !NPM_COMMANDS.has(cmd)) problems.push(`${line}: npm ${cmd ?? ''} is not a command these pages use`);
      else if (cmd === 'run' && !(script && script in scripts))
        problems.push(`${line}: package.json has no script "${script}"`);
    } else if (head === 'bash' || head.includes('/')) {
      const file = head === 'bash' ? rest[0] : head;
      if (!file || !existsSync(join(ROOT, file))) problems.push(`${line}: no file ${file} in the repository`);
    } else if (!(head in EXTERNAL)) {
      problems.push(
        `${line}: "${head}" is neither a command of this package nor one of the programs the pages are about (EXTERNAL in docs/gen/shell-check.ts)`,
      );
    }
  }
  return problems;
}
