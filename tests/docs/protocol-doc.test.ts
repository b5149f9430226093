import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { ExtensionSchema, TOOL_LIST } from '../../device-runtime/protocol/index.js';
import { PROTOCOL_DOC, renderProtocolDoc } from '../../docs/gen/protocol-doc.js';

/** docs/protocol.md is generated from the protocol's schemas: it must match them. */
test('docs/protocol.md is up to date with the schemas (npm run docs:protocol rewrites it)', () => {
  const committed = readFileSync(PROTOCOL_DOC, 'utf8');
  expect(committed, 'docs/protocol.md is stale: run `npm run docs:protocol` and commit it').toBe(renderProtocolDoc());
});

test('every tool, its arguments and errors, and every extension are on the page; extensions are marked', () => {
  const doc = renderProtocolDoc();
  for (const tool of TOOL_LIST) {
    const section = doc.slice(doc.indexOf(`### \`${tool.name}\``));
    expect(section, tool.name).toContain('**Arguments**');
    expect(section.slice(0, section.indexOf('**Errors**')), tool.name).toContain('**Result**');
    for (const arg of Object.keys(tool.input.shape))
      expect(section.split('**Result**')[0], `${tool.name}.${arg}`).toContain(`| \`${arg}\` |`);
    const head = section.slice(0, section.indexOf('**Arguments**'));
    expect(head.includes('**nestwright extension**'), tool.name).toBe(tool.extension);
  }
  for (const ext of ExtensionSchema.options) expect(doc).toContain(`| \`${ext}\` |`);
});
