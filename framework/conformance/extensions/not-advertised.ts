import { expectThat, type Check } from '../check.js';
import { describeAnswer } from '../session.js';

/** Extensions that are a tool of their own, and a harmless call of it. */
const TOOL_EXTENSIONS: Record<string, [string, Record<string, unknown>]> = {
  space_rename: ['space_rename', { space_id: 'no-such-space-conformance', name: 'x' }],
  space_permissions: [
    'space_permissions',
    { space_id: 'no-such-space-conformance', package: 'com.example', action: 'list' },
  ],
  audit_query: ['audit_query', {}],
  approval_decide: ['approval_decide', { approval_id: 'no-such-approval', decision: 'deny' }],
};

/** A tool of an extension the runtime does not advertise answers NOT_SUPPORTED (or UNKNOWN_TOOL). */
export const notAdvertisedCheck: Check = {
  id: 'extensions.not_advertised',
  group: 'extensions',
  title: 'the tools of extensions not advertised answer NOT_SUPPORTED',
  section: 'docs/protocol.md#extensions',
  expects: `each of ${Object.keys(TOOL_EXTENSIONS).join(', ')} not in runtime_info.extensions answers NOT_SUPPORTED or UNKNOWN_TOOL`,
  fix: 'Answer the error envelope NOT_SUPPORTED for a tool the runtime does not implement, or advertise the extension.',
  required: true,
  async run(ctx) {
    const advertised = new Set((ctx.info?.extensions as string[] | undefined) ?? []);
    const absent = Object.entries(TOOL_EXTENSIONS).filter(([ext]) => !advertised.has(ext));
    if (absent.length === 0) return { status: 'skip', sent: [], received: 'every tool extension is advertised' };
    const got: string[] = [];
    for (const [ext, [tool, args]] of absent) {
      const a = await ctx.main.call(tool, args);
      expectThat(
        !a.ok && (a.error.code === 'NOT_SUPPORTED' || a.error.code === 'UNKNOWN_TOOL'),
        `${ext} is not advertised, yet ${tool} answered ${describeAnswer(a)}`,
      );
      got.push(`${tool}: ${a.ok ? 'ok' : a.error.code}`);
    }
    return { status: 'pass', sent: [], received: got.join('; ') };
  },
};
