import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * What a user can reach through the published declarations: from the named exports of a packed
 * `index.d.ts`, every public member of every type of ours met on the way (properties, methods,
 * their parameters and results, type arguments such as `Promise<App>`), as `Owner.member` with
 * the path that reached it. Private and protected members do not count (a user cannot touch
 * them); types declared outside `within` (Playwright's, Node's) are passed through, not listed.
 */
export function reachableMembers(
  entry: string,
  roots: string[],
  within: string,
): { members: Map<string, string>; types: Set<string> } {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(entry);
  if (!file) throw new Error(`${entry} is not in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${entry} is not a module`);
  const exported = new Map(
    checker
      .getExportsOfModule(moduleSymbol)
      .map((s) => [s.getName(), s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s]),
  );
  const ours = (d: ts.Node) => path.resolve(d.getSourceFile().fileName).startsWith(within);
  const members = new Map<string, string>();
  const types = new Set<string>();
  const seen = new Set<ts.Type>();

  const visitSignature = (sig: ts.Signature, via: string) => {
    for (const p of sig.getParameters())
      if (p.valueDeclaration) visitType(checker.getTypeOfSymbolAtLocation(p, p.valueDeclaration), via);
    const thisParam = sig.thisParameter;
    if (thisParam?.valueDeclaration)
      visitType(checker.getTypeOfSymbolAtLocation(thisParam, thisParam.valueDeclaration), via);
    visitType(sig.getReturnType(), via);
  };

  const visitType = (t: ts.Type, via: string): void => {
    if (seen.has(t)) return;
    seen.add(t);
    if (t.isUnionOrIntersection()) {
      for (const part of t.types) visitType(part, via);
      return;
    }
    if (t.flags & ts.TypeFlags.Object && (t as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
      for (const arg of checker.getTypeArguments(t as ts.TypeReference)) visitType(arg, via);
    }
    for (const sig of [...t.getCallSignatures(), ...t.getConstructSignatures()]) visitSignature(sig, via);
    const symbol = t.aliasSymbol ?? t.getSymbol();
    const decl = symbol?.declarations?.[0];
    if (!symbol || !decl || !ours(decl)) return;
    const owner =
      symbol.getName() === '__type' || symbol.getName() === '__object' ? via.split(' → ').pop()! : symbol.getName();
    types.add(owner);
    for (const p of checker.getPropertiesOfType(t)) {
      const pd = p.valueDeclaration ?? p.declarations?.[0];
      if (!pd) continue;
      if (ts.getCombinedModifierFlags(pd as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected))
        continue;
      const key = `${owner}.${p.getName()}`;
      if (!members.has(key)) members.set(key, via);
      visitType(checker.getTypeOfSymbolAtLocation(p, pd), key);
    }
  };

  for (const name of roots) {
    const symbol = exported.get(name);
    if (!symbol) throw new Error(`${entry} exports no ${name}`);
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
      visitType(checker.getDeclaredTypeOfSymbol(symbol), name);
    // A class's static side, a variable's (expect's) value.
    if (decl && symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Variable))
      visitType(checker.getTypeOfSymbolAtLocation(symbol, decl), `${name} (value)`);
  }
  return { members, types };
}

/**
 * The members the sources tag `@internal` in their doc comment (as `Owner.member`), the way
 * `stripInternal` finds them: a leading comment holding `@internal`. A member with one public
 * declaration (an overload without the tag) is public.
 */
export function internalMembers(dir: string): Set<string> {
  const internal = new Map<string, boolean>();
  const note = (owner: string, name: string, isInternal: boolean) => {
    const key = `${owner}.${name}`;
    internal.set(key, (internal.get(key) ?? true) && isInternal);
  };
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts') || f.endsWith('.d.ts')) continue;
    const text = readFileSync(path.join(dir, f), 'utf8');
    const source = ts.createSourceFile(f, text, ts.ScriptTarget.ES2022, true);
    const tagged = (n: ts.Node) =>
      (ts.getLeadingCommentRanges(text, n.pos) ?? []).some((r) => text.slice(r.pos, r.end).includes('@internal'));
    const visit = (n: ts.Node) => {
      if ((ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n)) && n.name) {
        for (const m of n.members) {
          if (ts.isConstructorDeclaration(m)) {
            for (const p of m.parameters)
              if (ts.isIdentifier(p.name) && ts.getModifiers(p)?.length) note(n.name.text, p.name.text, tagged(p));
          } else if (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) {
            note(n.name.text, m.name.text, tagged(m));
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return new Set([...internal].filter(([, v]) => v).map(([k]) => k));
}
