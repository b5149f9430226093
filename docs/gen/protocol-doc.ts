/**
 * Writes docs/protocol.md from the zod schemas of device-runtime/protocol: every tool with its
 * arguments, result and error codes, the observation format, the error codes and the extensions.
 * The prose on the runtime model (leases, approvals, transport…) is kept here, next to what it
 * explains, so the page is one file that a test can regenerate and compare.
 *
 *   npm run docs:protocol          # rewrite docs/protocol.md
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ErrorCodeSchema,
  errorCodesOf,
  EXTENSION_DOCS,
  inputJsonSchema,
  ObservationSchema,
  PROTOCOL_VERSION,
  resultJsonSchema,
  RETRYABLE_CODES,
  TOOL_LIST,
  UiNodeSchema,
  type ToolName,
} from '../../device-runtime/protocol/index.js';
import { z } from 'zod';
import { RUNTIME_MODEL } from './protocol-model.js';

type Json = Record<string, any>;

/** A JSON Schema as a short type: `string`, `integer ≥ 1`, `'a' \| 'b'`, `string[]`, `object`. */
export function typeOf(s: Json | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'any';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(' \\| ');
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return alt.map((x: Json) => typeOf(x)).join(' \\| ');
  if (s.type === 'array') return s.prefixItems ? `[${s.prefixItems.map(typeOf).join(', ')}]` : `${typeOf(s.items)}[]`;
  if (s.type === 'object')
    return s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties
      ? `record of ${typeOf(s.additionalProperties)}`
      : 'object';
  // zod writes the safe-integer range on every int: not worth a reader's time.
  const big = (n: number) => Math.abs(n) >= Number.MAX_SAFE_INTEGER;
  const bounds = [
    s.minimum !== undefined && !big(s.minimum) ? `≥ ${s.minimum}` : '',
    s.maximum !== undefined && !big(s.maximum) ? `≤ ${s.maximum}` : '',
    s.minLength ? `length ≥ ${s.minLength}` : '',
    s.maxLength ? `length ≤ ${s.maxLength}` : '',
  ].filter(Boolean);
  return [Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any'), ...bounds].join(' ');
}

// `<` as an entity: the docs site compiles Markdown as Vue templates, where `<hex>` opens a tag.
const cell = (t: unknown) =>
  String(t ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .replace(/</g, '&lt;');

/** One row per property of an object schema: name, type, required/default, description. */
export function fieldTable(schema: Json, opts: { input: boolean }): string {
  const props: Record<string, Json> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  if (Object.keys(props).length === 0) return '_none_\n';
  const head = opts.input
    ? '| argument | type | required | description |\n|---|---|---|---|'
    : '| field | type | always | description |\n|---|---|---|---|';
  const rows = Object.entries(props).map(([name, p]) => {
    const need = required.has(name)
      ? 'yes'
      : p.default !== undefined
        ? `no (default ${JSON.stringify(p.default)})`
        : 'no';
    const desc = [
      p.description,
      p.type === 'object' && p.properties ? `fields: ${Object.keys(p.properties).join(', ')}` : '',
      p.type === 'array' && p.items?.properties ? `items: ${Object.keys(p.items.properties).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return `| \`${name}\` | ${typeOf(p).replace(/\|(?! )/g, '\\|')} | ${need} | ${cell(desc)} |`;
  });
  return [head, ...rows].join('\n') + '\n';
}

function toolSection(tool: (typeof TOOL_LIST)[number]): string {
  const flags = [
    tool.mutating ? 'mutating (needs an EXCLUSIVE lease)' : 'read-only',
    tool.dangerous ? 'dangerous (needs approval)' : '',
    tool.extension ? `**nestwright extension**${tool.group ? ` (\`${tool.group}\`)` : ''}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const input = inputJsonSchema(tool) as Json;
  const result = resultJsonSchema(tool) as Json;
  const refine = tool.name === 'app_intent' ? '\nAt least one of `data`, `package` or `component` is required.\n' : '';
  return [
    `### \`${tool.name}\``,
    '',
    `${tool.description}`,
    '',
    `Title: \`${tool.title}\` · ${flags}`,
    '',
    '**Arguments**',
    '',
    fieldTable(input, { input: true }) + refine,
    '**Result**',
    '',
    fieldTable(result, { input: false }),
    `**Errors**: ${errorCodesOf(tool.name as ToolName)
      .map((c) => `\`${c}\``)
      .join(', ')}`,
    '',
  ].join('\n');
}

export function renderProtocolDoc(): string {
  const codes = ErrorCodeSchema.options.map((c) => `| \`${c}\` | ${RETRYABLE_CODES.has(c) ? 'yes' : 'no'} |`);
  const extensions = Object.entries(EXTENSION_DOCS).map(([name, doc]) => `| \`${name}\` | ${cell(doc)} |`);
  const groups = new Map<string, Array<(typeof TOOL_LIST)[number]>>();
  for (const t of TOOL_LIST) {
    const g = t.name.split('_')[0]!;
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  return [
    '<!-- Generated by `npm run docs:protocol` from device-runtime/protocol (docs/gen/protocol-doc.ts). Do not edit by hand: tests/docs/protocol-doc.test.ts fails when it is out of date. -->',
    '',
    '# The device protocol',
    '',
    `Version ${PROTOCOL_VERSION}. What a NestSpace runtime serves over MCP and what nestwright speaks to it: the same`,
    'contract for a phone running NestSpace and for the embedded simulator. Every schema below is derived from the zod',
    'schemas in `device-runtime/protocol/`, which both the client and the simulator validate every call against, both',
    'ways. Tools and fields marked **nestwright extension** go beyond the NestSpace design; a runtime lists the ones it',
    'offers in `runtime_info.extensions`, and nestwright falls back when one is missing.',
    '',
    RUNTIME_MODEL,
    '## <a id="tools"></a>Tools',
    '',
    `${TOOL_LIST.length} tools. Every call returns its result, or the error envelope.`,
    '',
    ...[...groups.entries()].flatMap(([g, tools]) => [
      `Group \`${g}_*\`: ${tools.map((t) => `[\`${t.name}\`](#${t.name})`).join(', ')}`,
      '',
    ]),
    ...TOOL_LIST.map(toolSection),
    '## <a id="observation-fields"></a>Observation fields',
    '',
    'What `ui_observe` returns (and `ui_find` returns nodes of).',
    '',
    fieldTable(z.toJSONSchema(ObservationSchema, { io: 'output', unrepresentable: 'any' }) as Json, { input: false }),
    '### Node',
    '',
    fieldTable(z.toJSONSchema(UiNodeSchema, { io: 'output', unrepresentable: 'any' }) as Json, { input: false }),
    ...textMatching(),
    '## <a id="errors"></a>Error codes',
    '',
    'The envelope: `{ code, message, retryable, hint, details? }`. `retryable` says whether the same call may',
    'succeed unchanged after a pause. The codes form one closed set:',
    '',
    '| code | retryable |',
    '|---|---|',
    ...codes,
    '',
    '## <a id="extensions"></a>Extensions',
    '',
    'Names a runtime may list in `runtime_info.extensions` (unknown names are ignored by clients).',
    '',
    '| extension | what it adds |',
    '|---|---|',
    ...extensions,
    '',
  ].join('\n');
}

export const PROTOCOL_DOC = fileURLToPath(new URL('../protocol.md', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PROTOCOL_DOC, renderProtocolDoc());
  console.log(`wrote ${PROTOCOL_DOC}`);
}

/** One text semantics: device-runtime/protocol/selector.ts, pinned by tests/protocol/selector-semantics.test.ts. */
function textMatching(): string[] {
  return [
    '## <a id="text-matching"></a>Text matching',
    '',
    "One selector engine (`device-runtime/protocol/selector.ts`) gives text one meaning everywhere: the framework's",
    'locators, skills replayed on either side (`skill_run`), `ui_find` and `ui_wait_for` in the simulator.',
    '',
    '| written | matches a node when | example |',
    '|---|---|---|',
    '| `text=Save`, `getByText(\'Save\')`, `ui_wait_for {text}` (also its description) | its text contains it: case-insensitive, runs of whitespace count as one space, ends trimmed | `text=save` matches "Save  draft" |',
    '| `text="Save"`, `{ exact: true }`, `ui_find {text}` | its text equals it exactly (case and whitespace too) | `text="Save"` does not match "Save draft" |',
    '| `text=/^Sav/i` | the regular expression finds a match in its text | |',
    '| `desc=…`, `ui_find {desc}` | the same rules on its content description | |',
    '| `role=button[name="Save"]` | its role, and its text or description matches the name by the rules above | |',
    '| `has-text=Milk` (`filter({ hasText })`) | its full text — its own and every descendant\'s text (a node without text: its description), joined by spaces — contains it; quoted: case-sensitive, whitespace still normalized | keeps a list row whose checkbox reads "Milk" |',
    '| `id=save`, `ui_find {res_id}` | its resource id is `save` in any package, or equals a full id `pkg:id/save` | |',
    '',
    "Steps joined by `>>` search the descendants of the previous step's matches. `ui_find`'s `selector` and its exact",
    'fields must all hold for the same node.',
    '',
  ];
}
