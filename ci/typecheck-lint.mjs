#!/usr/bin/env node
/**
 * `npm run typecheck` and `npm run lint` in one process over one TypeScript program: what CI's
 * static stage runs (ci/test.sh). Run one after the other, the two build the same program twice
 * (tsc for its diagnostics, typed ESLint's project service for the types its rules ask about),
 * and ESLint's rules then ask a cold checker: about 35 + 90 s of CPU on 2 cores. Here tsc's
 * program is checked first, and handed to typescript-eslint (`parserOptions.programs`), whose
 * rules then read types the full check has already computed.
 *
 * Same inputs and verdicts as the two scripts: the program is tsconfig.json's (`tsc -p
 * tsconfig.json --noEmit`), the files linted are package.json's `lint` script's, with
 * eslint.config.js; the output is tsc's and ESLint's own format. Exit code 1 when either finds
 * an error. Developers keep the two scripts (and `test:fast`'s cached, incremental ones).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);

// The files `npm run lint` names, read from package.json so the two cannot drift.
const lintScript = JSON.parse(readFileSync('package.json', 'utf8')).scripts.lint;
const lintTargets = lintScript
  .replace(/^eslint\s+/, '')
  .split(/\s+/)
  .filter(Boolean);
if (lintTargets.some((t) => t.startsWith('-')))
  throw new Error(`ci/typecheck-lint.mjs: package.json's lint script has options (${lintScript}); name them here too`);

const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
};
const parsed = ts.getParsedCommandLineOfConfigFile('tsconfig.json', { noEmit: true }, host);
const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};
let failed = false;
if (parsed.errors.length) {
  process.stdout.write(ts.formatDiagnosticsWithColorAndContext(parsed.errors, formatHost));
  failed = true;
}

const t0 = Date.now();
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  projectReferences: parsed.projectReferences,
});
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length) {
  process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  const files = new Set(diagnostics.map((d) => d.file?.fileName).filter(Boolean));
  console.log(`\nFound ${diagnostics.length} error(s) in ${files.size} file(s) (tsc -p tsconfig.json).`);
  failed = true;
}
const t1 = Date.now();

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, programs: [program] } },
  },
});
const results = await eslint.lintFiles(lintTargets);
const formatter = await eslint.loadFormatter('stylish');
const text = await formatter.format(results);
if (text) process.stdout.write(text);
if (results.some((r) => r.errorCount > 0 || r.fatalErrorCount > 0)) failed = true;
console.log(
  `typecheck ${diagnostics.length ? 'failed' : 'passed'} (${parsed.fileNames.length} files, ${((t1 - t0) / 1000).toFixed(1)} s); ` +
    `lint ${results.some((r) => r.errorCount) ? 'failed' : 'passed'} (${results.length} files, ${((Date.now() - t1) / 1000).toFixed(1)} s)`,
);
process.exitCode = failed ? 1 : 0;
