import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues, getTool } from '../../protocol/index.js';

/**
 * What the human operator decided ahead of time (docs/protocol.md#approvals): which dangerous tools need no approval
 * request, and whether the shell is enabled and with which commands.
 */
/**
 * What the device's own agent may not do without asking (design §5.6: payment, uninstall,
 * permissions, install need the user's confirmation): a tap, long-press or typing on a node whose
 * text or description contains one of these (case-insensitive) waits for approval_decide.
 */
export const DEFAULT_AGENT_CONFIRM = ['pay', 'buy now', 'place order', 'purchase', 'delete', 'uninstall', 'transfer'];

export const SimPolicySchema = z.object({
  preapprove: z.array(z.string()).default([]),
  agent: z
    .object({ confirm: z.array(z.string().min(1)).default(DEFAULT_AGENT_CONFIRM) })
    .optional()
    .describe('Steps of the local agent (task_run) that need a human approval; default DEFAULT_AGENT_CONFIRM'),
  shell: z
    .object({
      enabled: z.boolean().default(false),
      /** A command is allowed when it equals an entry or starts with an entry followed by a space. */
      allow: z.array(z.string()).default([]),
    })
    .default({ enabled: false, allow: [] }),
  /**
   * App functions marked dangerous that need no approval: `package/function_id` (`com.nestwright.notes/deleteNote`),
   * `package/*`, or `*` for all of them.
   */
  preapprove_functions: z.array(z.string()).default([]),
});
export type SimPolicy = z.infer<typeof SimPolicySchema>;

/**
 * The embedded simulator serves test runs, and a test run is a pre-approved context: the person
 * who started it has already agreed to install, uninstall, grant permissions, use the clipboard
 * and call app functions marked dangerous in its spaces. The shell stays off, as on a device. `--policy strict` removes every pre-approval.
 */
export const TEST_RUN_POLICY: SimPolicy = {
  preapprove: ['space_install_apk', 'space_uninstall', 'space_permissions', 'sys_clipboard_get', 'sys_clipboard_set'],
  shell: { enabled: false, allow: [] },
  preapprove_functions: ['*'],
};

/** The design's defaults (docs/protocol.md#approvals): every dangerous call needs a human approval; no shell. */
export const STRICT_POLICY: SimPolicy = {
  preapprove: [],
  shell: { enabled: false, allow: [] },
  preapprove_functions: [],
};

/** `--policy strict|test|<file.json>`. */
export function loadPolicy(spec: string): SimPolicy {
  if (spec === 'strict') return STRICT_POLICY;
  if (spec === 'test' || spec === 'default') return TEST_RUN_POLICY;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(spec, 'utf8'));
  } catch (e) {
    throw new Error(
      `--policy ${spec}: cannot read it as JSON (${(e as Error).message}). Pass strict, test, or a JSON file like {"preapprove": ["space_install_apk"]}.`,
    );
  }
  return parsePolicy(raw, spec);
}

export function parsePolicy(raw: unknown, where = 'policy'): SimPolicy {
  const parsed = SimPolicySchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${where}: ${describeIssues(parsed.error)}`);
  }
  const unknown = parsed.data.preapprove.filter((t) => !getTool(t)?.dangerous);
  if (unknown.length) {
    throw new Error(
      `${where}: preapprove lists ${unknown.join(', ')}, which ${unknown.length > 1 ? 'are not dangerous tools' : 'is not a dangerous tool'}; only dangerous tools need approval.`,
    );
  }
  return parsed.data;
}

/** The words of `policy` that make an agent step dangerous. */
export const agentConfirm = (policy: SimPolicy): string[] => policy.agent?.confirm ?? DEFAULT_AGENT_CONFIRM;

export function shellAllows(policy: SimPolicy, command: string): boolean {
  const c = command.trim().replace(/\s+/g, ' ');
  return policy.shell.allow.some((a) => c === a || c.startsWith(`${a} `));
}

/** Whether the policy pre-approves the dangerous app function `fn` of `pkg`. */
export function functionPreapproved(policy: SimPolicy, pkg: string, fn: string): boolean {
  return policy.preapprove_functions.some((e) => e === '*' || e === `${pkg}/*` || e === `${pkg}/${fn}`);
}
