import { parseArgs } from 'node:util';
import type { Io } from './io.js';

/** What a review command (`heal`, `skill proposals`) was asked to do. */
export interface ReviewArgs {
  dir: string;
  json: boolean;
  apply: boolean;
  reject: boolean;
  ids: string[];
}

/**
 * The flags both review commands take — `[--dir D] [--json] [--apply [id…]] [--reject id…]` —
 * parsed and checked once: a bad flag, `--apply` with `--reject`, or ids with neither is a usage
 * error (exit 2, with the usage); `--help` prints the usage (exit 0). A number is the exit code.
 */
export function parseReviewArgs(
  cmd: string,
  usage: string,
  argv: string[],
  io: Pick<Io, 'out' | 'err'>,
): ReviewArgs | number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        dir: { type: 'string', default: '.' },
        json: { type: 'boolean', default: false },
        apply: { type: 'boolean', default: false },
        reject: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    io.err(`${cmd}: ${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals: ids } = parsed;
  if (values.help) return (io.out(usage), 0);
  if (values.apply && values.reject)
    return (io.err(`${cmd}: --apply and --reject together; choose one\n\n${usage}`), 2);
  if (ids.length > 0 && !values.apply && !values.reject)
    return (io.err(`${cmd}: proposal ids (${ids.join(' ')}) need --apply or --reject\n\n${usage}`), 2);
  return { dir: values.dir, json: values.json, apply: values.apply, reject: values.reject, ids };
}
