/**
 * TypeDoc plugin (typedoc.json `plugin`): the pages of `nestwright/protocol` take what the
 * schemas already say instead of a second, hand-written copy. A tool's page gets its
 * `description`, title template and a link to its section of docs/protocol.md; a `*Tools` list
 * names its tools; a zod schema and the type inferred from it point at each other. A doc comment
 * written in the source wins over all of these.
 *
 * It imports the protocol's TypeScript, so `npm run docs` runs TypeDoc under tsx.
 */
import {
  Comment,
  Converter,
  ReflectionKind,
  type Application,
  type CommentDisplayPart,
  type Context,
  type DeclarationReflection,
} from 'typedoc';
import * as protocol from '../../device-runtime/protocol/index.js';

const { TOOL_LIST } = protocol;

const PAGE = '../../../protocol.md';

function derived(r: DeclarationReflection, names: Set<string>): string | null {
  const tool = TOOL_LIST.find((t) => t.name === r.name);
  if (tool && r.kindOf(ReflectionKind.Variable)) {
    const marks = [
      tool.mutating ? 'mutating' : '',
      tool.dangerous ? 'dangerous (needs approval)' : '',
      tool.extension ? 'a nestwright extension' : '',
    ].filter(Boolean);
    return `The \`${tool.name}\` tool: ${tool.description}${marks.length ? ` (${marks.join(', ')})` : ''} Step title: \`${tool.title}\`. Arguments, result and errors: [docs/protocol.md](${PAGE}#${tool.name}).`;
  }
  const group = /^([a-z]+)Tools$/.exec(r.name);
  if (group && r.kindOf(ReflectionKind.Variable)) {
    const list = (protocol as Record<string, unknown>)[r.name];
    const members = Array.isArray(list) ? list.map((t: { name: string }) => `\`${t.name}\``) : [];
    return `The ${group[1]} tools${members.length ? `: ${members.join(', ')}` : ''}; \`TOOL_LIST\` joins every group.`;
  }
  const schema = /^(\w+)Schema$/.exec(r.name);
  if (schema && r.kindOf(ReflectionKind.Variable)) {
    return names.has(schema[1]!)
      ? `The zod schema of {@link ${schema[1]}}: the client and the runtime both parse with it.`
      : 'A zod schema of the protocol: the client and the runtime both parse with it.';
  }
  if (r.kindOf(ReflectionKind.TypeAlias) && names.has(`${r.name}Schema`)) {
    return `Inferred from {@link ${r.name}Schema} (the schema is the contract; docs/protocol.md describes its fields).`;
  }
  return null;
}

/** Text with `{@link X}` as TypeDoc's display parts (the links are resolved after this event). */
function parts(text: string): CommentDisplayPart[] {
  return text
    .split(/(\{@link \w+\})/)
    .filter(Boolean)
    .map((p) => {
      const link = /^\{@link (\w+)\}$/.exec(p);
      return link ? { kind: 'inline-tag', tag: '@link', text: link[1]! } : { kind: 'text', text: p };
    });
}

export function load(app: Application): void {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context: Context) => {
    const module = context.project.children?.find((m) => m.name === 'nestwright/protocol');
    if (!module) return;
    const names = new Set((module.children ?? []).map((c) => c.name));
    for (const r of module.children ?? []) {
      if (r.comment || r.signatures?.some((s) => s.comment)) continue;
      const text = derived(r, names);
      if (text) r.comment = new Comment(parts(text));
    }
  });
}
