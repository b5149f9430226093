import { encodeError } from '../../device-runtime/protocol/index.js';
import { toolError } from '../../device-runtime/protocol/index.js';
import type { Rewrite } from './wrap.js';

/**
 * The broken runtimes: the simulator seen through one fault each, and the one check of the kit
 * meant to catch it. Each is a rewrite of the calls and answers (wrap.ts): the simulator itself
 * runs unchanged.
 */
export interface Fault {
  name: string;
  /** The check that must catch it (fail, or warn for a reported figure). */
  caughtBy: string;
  status: 'fail' | 'warn';
  rewrite(): Rewrite;
}

export const FAULTS: Fault[] = [
  {
    name: 'a renamed output field (space_list_apps apps[].version_name → versionName)',
    caughtBy: 'tools.space_list_apps',
    status: 'fail',
    rewrite: () => ({
      result: (name, body) => {
        if (name !== 'space_list_apps') return body;
        const apps = (body.apps as Record<string, unknown>[]).map(({ version_name, ...rest }) => ({
          ...rest,
          versionName: version_name,
        }));
        return { ...body, apps };
      },
    }),
  },
  {
    name: 'a wrong error code (INVALID_ARGUMENT for an unknown space)',
    caughtBy: 'errors.unknown_space',
    status: 'fail',
    rewrite: () => ({
      answer: (_name, raw) => {
        const text =
          raw.isError && raw.content?.[0]?.type === 'text' ? String((raw.content[0] as { text: string }).text) : '';
        if (!text.includes('"SPACE_NOT_FOUND"')) return raw;
        return encodeError(toolError('INVALID_ARGUMENT', 'no such space'));
      },
    }),
  },
  {
    name: 'data shared between instances (every launch goes to the first instance)',
    caughtBy: 'semantics.instances_separate_data',
    status: 'fail',
    rewrite: () => ({
      args: (name, args) => {
        if (name === 'space_launch' && args.instance === 'new') delete args.instance;
        return args;
      },
    }),
  },
  {
    name: 'a lease not reclaimed (the session is never ended)',
    caughtBy: 'semantics.lease_reclaimed',
    status: 'fail',
    rewrite: () => ({ close: () => false }),
  },
  {
    name: 'an extension advertised but not implemented (selector_actions answers NOT_SUPPORTED)',
    caughtBy: 'extensions.selector_actions',
    status: 'fail',
    rewrite: () => ({
      answer: (_name, raw, args) =>
        args.selector ? encodeError(toolError('NOT_SUPPORTED', 'selectors are not supported')) : raw,
    }),
  },
  {
    name: 'a stale snapshot accepted (snapshot_id ignored)',
    caughtBy: 'errors.stale_snapshot',
    status: 'fail',
    rewrite: () => ({
      args: (name, args) => {
        if (name.startsWith('ui_')) delete args.snapshot_id;
        return args;
      },
    }),
  },
  {
    name: 'a slow observe (600 ms per ui_observe)',
    caughtBy: 'timings.observe',
    status: 'warn',
    rewrite: () => ({ before: (name) => (name === 'ui_observe' ? new Promise((r) => setTimeout(r, 600)) : undefined) }),
  },
];

FAULTS.push({
  name: 'an extension implemented but not advertised (space_rename left out of runtime_info.extensions)',
  caughtBy: 'extensions.not_advertised',
  status: 'fail',
  rewrite: () => ({
    result: (name, body) =>
      name === 'runtime_info'
        ? { ...body, extensions: (body.extensions as string[]).filter((e) => e !== 'space_rename') }
        : body,
  }),
});

FAULTS.push(
  {
    name: 'observe_diff: a diff whose hash is not the hash of the whole',
    caughtBy: 'extensions.observe_diff',
    status: 'fail',
    rewrite: () => ({
      result: (name, body) =>
        name === 'ui_observe' && body.diff
          ? { ...body, diff: { ...(body.diff as Record<string, unknown>), hash: 'ffffffffffffffff' } }
          : body,
    }),
  },
  {
    name: 'observe_diff: a since with a wrong hash answered in full instead of DIFF_BASE_MISMATCH',
    caughtBy: 'extensions.observe_diff',
    status: 'fail',
    rewrite: () => ({
      args: (name, args) => {
        const since = args.since as { hash?: string } | null | undefined;
        if (name === 'ui_observe' && since?.hash === '0'.repeat(16)) args.since = null;
        return args;
      },
    }),
  },
);
