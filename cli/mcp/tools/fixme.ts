import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AgentError } from '../errors.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';
import { allowedPath } from './files.js';

/**
 * `fixme`: the healer's way out when the app, not the test, is broken. The test's `test(…)` call
 * becomes `test.fixme(…)` (Playwright skips it and reports it as such), with a comment above it
 * saying what the app does instead: an AST edit with ts-morph, so nothing else in the file moves
 * and the assertions stay as they were.
 */
export function fixmeTools(state: AgentState) {
  const fixme = defineAgentTool({
    name: 'fixme',
    title: 'Mark a test fixme',
    description:
      "Mark a test whose app is broken as test.fixme, with the reason as a comment above it (what the app does instead of what the test expects). The test's steps and assertions are kept as they are. For app bugs only: a test that is wrong is fixed, not marked.",
    input: z
      .object({
        file: z.string().min(1).max(500).describe('specs/….spec.ts, relative to the project root'),
        title: z.string().min(1).max(200).describe("The test's own title (not the describe's)"),
        reason: z.string().min(10).max(500).describe('What happens instead, e.g. the crash and its exception'),
      })
      .strict(),
    result: z.object({ file: z.string(), line: z.number().int(), before: z.string(), after: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input) {
      const abs = await allowedPath(state.project.root, input.file);
      const text = await readFile(abs, 'utf8').catch(() => {
        throw new AgentError('INVALID_ARGUMENT', `${input.file}: no such spec`, 'Name a file list_tests lists.');
      });
      // ts-morph (with the TypeScript compiler inside it) on the first call, not at the server's start.
      const { Node, Project } = await import('ts-morph');
      const source = new Project({ useInMemoryFileSystem: true }).createSourceFile('spec.ts', text);
      const calls = source.getDescendants().filter((n) => {
        if (!Node.isCallExpression(n)) return false;
        const callee = n.getExpression().getText();
        const first = n.getArguments()[0];
        return (
          /^test(\.(only|fixme|fail|skip))?$/.test(callee) &&
          first !== undefined &&
          Node.isStringLiteral(first) &&
          first.getLiteralValue() === input.title
        );
      });
      if (calls.length !== 1)
        throw new AgentError(
          calls.length ? 'STRICT_MODE_VIOLATION' : 'INVALID_ARGUMENT',
          `${input.file}: ${calls.length || 'no'} test(…) calls titled ${JSON.stringify(input.title)}`,
          "Give the test's own title as list_tests shows its last part.",
        );
      const call = calls[0]!;
      if (!Node.isCallExpression(call)) throw new AgentError('INTERNAL', 'not a call');
      const callee = call.getExpression();
      if (callee.getText() === 'test.fixme')
        throw new AgentError('INVALID_ARGUMENT', `${JSON.stringify(input.title)} is already fixme`, null);
      const statement = call.getFirstAncestor((a) => Node.isExpressionStatement(a));
      if (!statement) throw new AgentError('INVALID_ARGUMENT', 'the test call is not a statement of its own', null);
      const line = statement.getStartLineNumber();
      const before = statement.getText().split('\n')[0]!;
      const reason = input.reason.replace(/\s+/g, ' ').trim();
      // Two splices of the text as it is (the AST only finds where): the callee, then the comment.
      const at = statement.getStart();
      const indent = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
      const out =
        text.slice(0, at) +
        `// FIXME: the app is broken here: ${reason}\n${indent}` +
        text.slice(at, callee.getStart()) +
        'test.fixme' +
        text.slice(callee.getEnd());
      await writeFile(abs, out);
      const after = out
        .split('\n')
        .slice(line - 1, line + 1)
        .join('\n');
      return { result: { file: path.relative(state.project.root, abs), line, before, after } };
    },
  });
  return [fixme];
}
