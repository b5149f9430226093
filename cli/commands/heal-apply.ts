import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Node, Project, type CallExpression, type SourceFile } from 'ts-morph';
import { entryKey, fingerprintFileOf, updateFingerprintFile } from '../../framework/heal/fingerprint-store.js';
import { withdrawProposal, type Proposal } from '../../framework/heal/proposals.js';
import { parseSelector, type Step } from '../../framework/core/selector.js';

/**
 * The spec edit of `nestwright heal --apply`, with ts-morph (the TypeScript compiler's AST), so a
 * string that happens to look like the selector elsewhere in the file is never touched: find the
 * action call at the proposal's line and column, follow it to the locator call that built its
 * locator (in the same expression, or a variable's initializer), and replace that call's
 * arguments — its method name too only when the healed selector needs another kind of locator.
 */
export const LOCATOR_METHODS: Record<string, Step['kind'] | 'any'> = {
  getById: 'id',
  getByText: 'text',
  getByDesc: 'desc',
  getByRole: 'role',
  locator: 'any',
};

export class ApplyError extends Error {}

export interface Edit {
  line: number;
  before: string;
  after: string;
  /** The method changed as well as the arguments (another kind of locator). */
  renamed: boolean;
}

/** The locator call whose locator the action at `line:column` acts on. */
function locatorCallAt(sf: SourceFile, line: number, column: number): CallExpression {
  // A stack frame points at the start of the awaited expression (`await x.tap()`), or at the call.
  const pos = sf.compilerNode.getPositionOfLineAndCharacter(line - 1, column - 1);
  let node: Node | undefined = sf.getDescendantAtPos(pos);
  while (
    node?.getParent() &&
    node.getParent()!.getStart() === pos &&
    !Node.isBlock(node.getParent()!) &&
    !Node.isSourceFile(node.getParent()!)
  )
    node = node.getParent();
  if (node && Node.isExpressionStatement(node)) node = node.getExpression();
  if (node && Node.isAwaitExpression(node)) node = node.getExpression();
  // From the name of a call (`tap` in `x.tap()`) up to the call.
  while (node && !(Node.isCallExpression(node) && Node.isPropertyAccessExpression(node.getExpression())))
    node = node.getParent();
  if (!node)
    throw new ApplyError(
      `no call at ${sf.getBaseName()}:${line}:${column}; the spec changed since the run — run the tests again`,
    );
  const action = node as CallExpression;
  let target: Node = (action.getExpression() as import('ts-morph').PropertyAccessExpression).getExpression();
  if (Node.isIdentifier(target)) {
    const decl = target.getDefinitionNodes().find((d) => Node.isVariableDeclaration(d));
    const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    if (!init)
      throw new ApplyError(
        `${target.getText()} at line ${line} is not a variable initialized in this file with a locator call; edit it by hand`,
      );
    target = init;
  }
  if (Node.isAwaitExpression(target)) target = target.getExpression();
  if (!Node.isCallExpression(target) || !Node.isPropertyAccessExpression(target.getExpression()))
    throw new ApplyError(
      `the action at line ${line} does not act on a locator call (${target.getText().slice(0, 60)}); edit it by hand`,
    );
  const name = (target.getExpression() as import('ts-morph').PropertyAccessExpression).getName();
  if (!(name in LOCATOR_METHODS))
    throw new ApplyError(
      `the action at line ${line} acts on ${name}(…), not on one of ${Object.keys(LOCATOR_METHODS).join(', ')}; edit it by hand`,
    );
  return target;
}

function quoteLike(sample: string | undefined, value: string): string {
  const q = sample?.startsWith('"') ? '"' : sample?.startsWith('`') ? '`' : "'";
  const body = JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"');
  return `${q}${q === '"' ? body.replace(/"/g, '\\"') : body.replace(new RegExp(q === '`' ? '[`$]' : "'", 'g'), (m) => `\\${m}`)}${q}`;
}

/** Method and arguments (source text) for one healed step, quoted like the original call. */
function callFor(step: Step, quoteSample: string | undefined, method: string): { method: string; args: string[] } {
  const q = (v: string) => quoteLike(quoteSample, v);
  const exact = (m: { exact: boolean }) => (m.exact ? [`{ exact: true }`] : []);
  const text = (m: { text: string | RegExp }) => (m.text instanceof RegExp ? String(m.text) : q(m.text));
  if (method === 'locator') return { method, args: [q(formatStep(step))] };
  switch (step.kind) {
    case 'id':
      return { method: 'getById', args: [q(step.id)] };
    case 'text':
      return { method: 'getByText', args: [text(step), ...exact(step)] };
    case 'desc':
      return { method: 'getByDesc', args: [text(step), ...exact(step)] };
    case 'role':
      return {
        method: 'getByRole',
        args: [
          q(step.role),
          ...(step.name
            ? [
                `{ name: ${text(step.name)}${step.name.exact && !(step.name.text instanceof RegExp) ? ', exact: true' : ''} }`,
              ]
            : []),
        ],
      };
    default:
      throw new ApplyError(`a healed selector is one simple step, got ${step.kind}`);
  }
}

function formatStep(step: Step): string {
  const t = (m: { text: string | RegExp; exact: boolean }) =>
    m.text instanceof RegExp ? String(m.text) : m.exact ? `"${m.text}"` : m.text;
  switch (step.kind) {
    case 'id':
      return `id=${step.id}`;
    case 'text':
    case 'desc':
      return `${step.kind}=${t(step)}`;
    case 'role':
      return `role=${step.role}${step.name ? `[name=${t(step.name)}]` : ''}`;
    default:
      throw new ApplyError(`cannot write ${step.kind} as a selector`);
  }
}

/**
 * Rewrite the locator call of one proposal in `file` (saved in place). The healed locator names
 * one node on the whole screen, so a locator built by chaining (`>>`, filter, nth) is left for a
 * person. getByRole keeps its other options (checked, disabled…): only `name`/`exact` change.
 */
export function applyToFile(
  project: Project,
  file: string,
  p: { line: number; column: number; selector: string; proposed: string },
): Edit {
  if (/>>|filter\(|nth=/.test(p.selector))
    throw new ApplyError(`${p.selector} is a chained locator; apply ${p.proposed} by hand`);
  const sf = project.getSourceFile(file) ?? project.addSourceFileAtPath(file);
  const call = locatorCallAt(sf, p.line, p.column);
  const before = call.getText();
  const access = call.getExpression() as import('ts-morph').PropertyAccessExpression;
  const method = access.getName();
  const steps = parseSelector(p.proposed, 'nestwright heal');
  if (steps.length !== 1) throw new ApplyError(`healed selector ${p.proposed} is not one step`);
  const step = steps[0]!;
  const kind = LOCATOR_METHODS[method];
  const sample = call.getArguments()[0]?.getText();
  const args = call.getArguments();
  if (method === 'getByRole' && step.kind === 'role' && args[1] && Node.isObjectLiteralExpression(args[1])) {
    // Keep the other options; set name (and exact) only.
    if (args[0]!.getText().slice(1, -1) !== step.role) args[0]!.replaceWithText(quoteLike(sample, step.role));
    const obj = args[1];
    const name = step.name!;
    const value = name.text instanceof RegExp ? String(name.text) : quoteLike(sample, name.text);
    const nameProp = obj.getProperty('name');
    if (nameProp && Node.isPropertyAssignment(nameProp)) nameProp.setInitializer(value);
    else obj.insertPropertyAssignment(0, { name: 'name', initializer: value });
    const exactProp = obj.getProperty('exact');
    if (name.exact && !(name.text instanceof RegExp)) {
      if (exactProp && Node.isPropertyAssignment(exactProp)) exactProp.setInitializer('true');
      else obj.addPropertyAssignment({ name: 'exact', initializer: 'true' });
    } else exactProp?.remove();
  } else {
    const next = callFor(step, sample, kind === 'any' ? 'locator' : method);
    const renamed = next.method !== method;
    for (const a of [...call.getArguments()]) call.removeArgument(a);
    call.addArguments(next.args);
    if (renamed) access.getNameNode().replaceWithText(next.method);
  }
  const after = call.getText();
  return {
    line: sf.getLineAndColumnAtPos(call.getStart()).line,
    before,
    after,
    renamed: !after.startsWith(before.slice(0, before.indexOf('('))),
  };
}

export function newProject(): Project {
  return new Project({
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true },
  });
}

/**
 * Apply one proposal of project `dir`: edit its spec's locator call and save it, move the
 * remembered fingerprint to the new locator (so it can heal again before the next run records
 * it), and withdraw the proposal. Throws {@link ApplyError} with what to do when it cannot.
 */
export function applyProposal(project: Project, dir: string, p: Proposal): Edit {
  const file = resolve(dir, p.spec);
  if (!existsSync(file)) throw new ApplyError(`${p.spec} does not exist`);
  const edit = applyToFile(project, file, p);
  project.getSourceFileOrThrow(file).saveSync();
  updateFingerprintFile(fingerprintFileOf(file), (f) => {
    const old = Object.values(f.entries).find((e) => e.selector === p.selector && e.line === p.line);
    if (!old) return false;
    delete f.entries[entryKey(old)];
    const moved = { ...old, selector: p.proposed };
    f.entries[entryKey(moved)] = moved;
    return true;
  });
  withdrawProposal(dir, p.id);
  return edit;
}
