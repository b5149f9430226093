/**
 * The `@example` blocks of the public API's doc comments, read with the TypeScript compiler API
 * and type-checked against the package's own types, so an example cannot rot: a renamed method
 * or a changed option fails tests/docs/api-examples.test.ts.
 *
 * Each example is compiled as a module of its own. It may import what it needs; whatever it
 * does not import, it gets from 'nestwright' (test, expect, App, Locator, Space, Device, the
 * error classes…), and `app`, `device` and `space` are in scope as the fixtures a test gets. The
 * body is wrapped in a block, so an example may declare names of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The source folders behind package.json's `exports` (the public entry points and what they re-export). */
export const PUBLIC_DIRS = ['framework', 'device-runtime/protocol', 'device-runtime/client', 'reporters/allure'];

export interface Example {
  /** `framework/core/app.ts:123`: where the example's code starts. */
  where: string;
  /** What it documents, e.g. `App.intent`. */
  owner: string;
  code: string;
}

const PRELUDE_NAMES = [
  'test',
  'expect',
  'devices',
  'defineConfig',
  'secret',
  'App',
  'Locator',
  'Space',
  'NestwrightError',
  'TimeoutError',
  'StrictModeViolationError',
  'AppCrashedError',
  'DeviceDisconnectedError',
  'DeviceError',
];
const PRELUDE_TYPES = ['Device', 'NestwrightUse', 'RoleOptions'];

export function sourceFiles(dirs = PUBLIC_DIRS): string[] {
  return dirs.flatMap((d) =>
    readdirSync(join(ROOT, d), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
      .map((f) => join(ROOT, d, f)),
  );
}

/** The name a doc comment belongs to: `App.intent`, `DeviceApi.newSpace`, `NestwrightMatchers.toHaveText`. */
export function ownerName(node: ts.Node): string {
  const names: string[] = [];
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    const name = (n as { name?: ts.Node }).name;
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) names.unshift(name.text);
  }
  return names.join('.').replace(/^matchers\b/, 'NestwrightMatchers') || '(module)';
}

/** Every `@example` in `files`, with its code (the fenced block, or the whole tag when unfenced). */
export function collectExamples(files = sourceFiles()): Example[] {
  const out: Example[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const seen = new Set<number>();
    const visit = (node: ts.Node) => {
      for (const tag of ts.getJSDocTags(node)) {
        if (tag.tagName.text !== 'example' || seen.has(tag.pos)) continue;
        seen.add(tag.pos);
        const comment = ts.getTextOfJSDocComment(tag.comment) ?? '';
        const fenced = [...comment.matchAll(/```(?:ts|typescript)?\n([\s\S]*?)```/g)].map((m) => m[1]!);
        const blocks = fenced.length ? fenced : [comment];
        const line = sf.getLineAndCharacterOfPosition(tag.getStart(sf)).line + 1 + (fenced.length ? 2 : 1);
        for (const code of blocks) out.push({ where: `${relative(ROOT, file)}:${line}`, owner: ownerName(node), code });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/**
 * The module an example is compiled as: its imports, the prelude, its body in a block. An example
 * that is a module of its own (`export default defineConfig(…)`, a wdio.conf.ts) is compiled
 * unwrapped, with the prelude less what it declares itself.
 */
export function exampleModule(code: string): { text: string; bodyLine: number } {
  const sf = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true);
  const imports = sf.statements.filter(ts.isImportDeclaration);
  const imported = new Set(
    imports.flatMap((i) => {
      const b = i.importClause?.namedBindings;
      return b && ts.isNamedImports(b) ? b.elements.map((e) => e.name.text) : [];
    }),
  );
  const isModule = sf.statements.some(
    (s) =>
      ts.isExportAssignment(s) ||
      ts.isExportDeclaration(s) ||
      (ts.canHaveModifiers(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)),
  );
  const declared = new Set(
    isModule
      ? sf.statements.flatMap((s) =>
          ts.isVariableStatement(s)
            ? s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []))
            : (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name
              ? [s.name.text]
              : [],
        )
      : [],
  );
  const free = (n: string) => !imported.has(n) && !declared.has(n);
  const body = code.slice(imports.length ? imports[imports.length - 1]!.end : 0);
  const values = PRELUDE_NAMES.filter(free);
  const types = PRELUDE_TYPES.filter(free).map((n) => `type ${n}`);
  const head = [
    ...imports.map((i) => i.getText(sf)),
    `import { ${[...values, ...types].join(', ')} } from 'nestwright';`,
    ...['app: App', 'device: Device', 'space: Space']
      .filter((d) => free(d.split(':')[0]!))
      .map((d) => `declare const ${d};`),
    ...(isModule ? [] : ['export {};', '{']),
  ];
  const bodyStart = code.slice(0, code.length - body.length).split('\n').length - 1;
  return { text: [...head, body, isModule ? '' : '}'].join('\n'), bodyLine: head.length - bodyStart };
}

export interface ExampleProblem {
  example: Example;
  message: string;
}

/**
 * Type-check every example against the sources (tsconfig.json's `paths` map 'nestwright' to
 * them), all in one program. Returns one problem per diagnostic, placed at the example's line.
 */
export function checkExamples(examples: Example[]): ExampleProblem[] {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const virtual = new Map<string, { example: Example; bodyLine: number; text: string }>();
  examples.forEach((example, i) => {
    const { text, bodyLine } = exampleModule(example.code);
    virtual.set(join(ROOT, 'tests/docs/__api_examples__', `example-${i}.ts`), { example, bodyLine, text });
  });
  // An example starts from one import of the whole API, so most of what it imports goes unused.
  const options = { ...config.options, noEmit: true, noUnusedLocals: false };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, fresh) => {
    const v = virtual.get(resolve(name));
    return v ? ts.createSourceFile(name, v.text, lang) : getSourceFile(name, lang, onError, fresh);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(resolve(name)) || fileExists(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  const problems: ExampleProblem[] = [];
  for (const [name, v] of virtual) {
    const sf = program.getSourceFile(name)!;
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const line = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start).line : 0;
      const codeLine = v.text.split('\n')[line] ?? '';
      const [file, at] = v.example.where.split(':');
      const where = line >= v.bodyLine ? `${file}:${Number(at) + line - v.bodyLine}` : v.example.where;
      problems.push({
        example: v.example,
        message: `${where} (${v.example.owner}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n    ${codeLine.trim()}`,
      });
    }
  }
  return problems;
}

/** The API the reference promises an example for: its classes, the device fixture, the matchers, the errors. */
export const DOCUMENTED_API: Record<string, string[]> = {
  'framework/core/app.ts': ['App'],
  'framework/core/locator-factory.ts': ['LocatorFactory'],
  'framework/core/locator.ts': ['Locator'],
  'framework/core/space.ts': ['Space'],
  'framework/core/device.ts': ['DeviceApi', 'Device', 'devices'],
  'framework/core/matchers.ts': ['matchers'],
  'framework/core/expect.ts': ['expect'],
  'framework/core/errors.ts': [
    'NestwrightError',
    'TimeoutError',
    'StrictModeViolationError',
    'AppCrashedError',
    'DeviceDisconnectedError',
  ],
};

export interface ApiMember {
  /** `App.intent`, or `App` for the declaration itself. */
  name: string;
  hasExample: boolean;
}

const tagsOf = (node: ts.Node) => ts.getJSDocTags(node).map((t) => t.tagName.text);
const isHidden = (node: ts.Node) => {
  const name = (node as { name?: ts.Node }).name;
  return (
    tagsOf(node).includes('internal') ||
    (ts.canHaveModifiers(node) &&
      (ts.getModifiers(node) ?? []).some(
        (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
      )) ||
    (name !== undefined && ts.isPrivateIdentifier(name))
  );
};

/**
 * Each public method, accessor and member of {@link DOCUMENTED_API}, and each declaration itself,
 * with whether it has an `@example` (an overloaded method counts once: any of its signatures).
 */
export function documentedApi(): ApiMember[] {
  const out = new Map<string, boolean>();
  const add = (name: string, node: ts.Node) =>
    out.set(name, (out.get(name) ?? false) || tagsOf(node).includes('example'));
  for (const [file, names] of Object.entries(DOCUMENTED_API)) {
    const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const st of sf.statements) {
      const decls: Array<[string, ts.Node, readonly ts.Node[]]> = [];
      if (
        (ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) &&
        st.name &&
        names.includes(st.name.text)
      ) {
        decls.push([st.name.text, st, ts.isTypeAliasDeclaration(st) ? [] : st.members]);
      }
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) {
          if (!ts.isIdentifier(d.name) || !names.includes(d.name.text)) continue;
          const members = d.initializer && ts.isObjectLiteralExpression(d.initializer) ? d.initializer.properties : [];
          decls.push([
            d.name.text === 'matchers' ? 'NestwrightMatchers' : d.name.text,
            d.name.text === 'matchers' ? d : st,
            members,
          ]);
        }
      }
      for (const [name, node, members] of decls) {
        if (name !== 'NestwrightMatchers' && name !== 'LocatorFactory' && name !== 'DeviceApi') add(name, node);
        for (const m of members) {
          if (
            isHidden(m) ||
            ts.isConstructorDeclaration(m) ||
            ts.isPropertyDeclaration(m) ||
            ts.isIndexSignatureDeclaration(m)
          )
            continue;
          const id = (m as { name?: ts.Node }).name;
          if (!id || !(ts.isIdentifier(id) || ts.isStringLiteral(id))) continue;
          add(`${name}.${id.text}`, m);
        }
      }
    }
  }
  return [...out].map(([name, hasExample]) => ({ name, hasExample }));
}
