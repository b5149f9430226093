import { test, expect } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseLocatorInput } from '../../framework/tools/expression.js';
import { parseSelector, resolveSteps, type Step } from '../../framework/core/selector.js';
import { suggestLocators } from '../../device-runtime/protocol/best-selector.js';
import { selectorOf } from '../../device-runtime/protocol/selector-write.js';

const node = (id: string, over: Partial<UiNode>): UiNode => ({
  id,
  role: 'text',
  text: null,
  desc: null,
  bounds: [0, 0, 10, 10],
  clickable: false,
  editable: false,
  scrollable: false,
  enabled: true,
  focused: false,
  selected: false,
  parent: null,
  ...over,
});

/** A list of two rows, each with a title and a checkbox that has no name of its own. */
const screen = {
  nodes: [
    node('n1', { role: 'button', text: 'New note', res_id: 'com.x:id/new_note', clickable: true }),
    node('n2', { role: 'list', scrollable: true }),
    node('n3', { role: 'listitem', parent: 'n2', bounds: [0, 100, 10, 200] }),
    node('n4', { text: 'Milk', parent: 'n3' }),
    node('n5', { role: 'checkbox', parent: 'n3', clickable: true, bounds: [0, 100, 5, 110] }),
    node('n6', { role: 'listitem', parent: 'n2', bounds: [0, 200, 10, 300] }),
    node('n7', { text: 'Eggs', parent: 'n6' }),
    node('n8', { role: 'checkbox', parent: 'n6', clickable: true, bounds: [0, 200, 5, 210] }),
    node('n9', { role: 'button', desc: 'Search notes', clickable: true }),
  ],
};

test('suggestions are ranked id > role > desc > text, and each is checked for strictness on the screen', () => {
  const s = suggestLocators(screen, 'n1');
  expect(s.map((x) => x.strategy)).toEqual(['id', 'role', 'text']);
  expect(s[0]).toMatchObject({
    selector: 'id=new_note',
    code: "app.getById('new_note')",
    strictSafe: true,
    matches: 1,
  });
  expect(suggestLocators(screen, 'n9')[0]).toMatchObject({
    strategy: 'role',
    selector: 'role=button[name="Search notes"]',
    strictSafe: true,
  });
  expect(suggestLocators(screen, 'nope')).toEqual([]);
});

test('a node with no name of its own is found inside its row, by the row text', () => {
  const [best] = suggestLocators(screen, 'n8');
  expect(best).toMatchObject({
    strategy: 'chain',
    strictSafe: true,
    code: "app.getByRole('listitem').filter({ hasText: 'Eggs' }).getByRole('checkbox')",
  });
  expect(resolveSteps(screen.nodes, parseSelector(best!.selector)).map((n) => n.id)).toEqual(['n8']);
  expect(resolveSteps(screen.nodes, parseLocatorInput(best!.code)).map((n) => n.id)).toEqual(['n8']);
});

test('selectorOf writes what parseSelector reads back, and code reads as the same steps', () => {
  const chains: Step[][] = [
    [{ kind: 'text', text: 'Save', exact: true }],
    [{ kind: 'text', text: 'sav', exact: false }],
    [{ kind: 'text', text: 'say "hi"', exact: true }],
    [{ kind: 'desc', text: /se(a|e)rch/i, exact: false }],
    [{ kind: 'role', role: 'button', name: { text: 'Save', exact: true }, disabled: false }],
    [
      { kind: 'role', role: 'listitem' },
      { kind: 'filter', hasText: { text: 'Milk', exact: false } },
      { kind: 'id', id: 'check' },
      { kind: 'nth', index: -1 },
    ],
  ];
  for (const steps of chains) expect(parseSelector(selectorOf(steps)), selectorOf(steps)).toEqual(steps);
  expect(parseLocatorInput(`app.getByRole('button', { name: "Save", exact: true, disabled: false })`)).toEqual(
    chains[4],
  );
  expect(parseLocatorInput(`getByText(/se(a|e)rch/i).first()`)).toEqual([
    { kind: 'text', text: /se(a|e)rch/i, exact: false },
    { kind: 'nth', index: 0 },
  ]);
  expect(parseLocatorInput(`app.getByRole('listitem').filter({ has: app.getByText('Milk') }).last()`)).toEqual([
    { kind: 'role', role: 'listitem' },
    { kind: 'filter', has: [{ kind: 'text', text: 'Milk', exact: false }] },
    { kind: 'nth', index: -1 },
  ]);
  expect(parseLocatorInput('text="Save" >> nth=1')).toEqual([
    { kind: 'text', text: 'Save', exact: true },
    { kind: 'nth', index: 1 },
  ]);
});

test('code that is not a locator is refused with the column and an example, never evaluated', () => {
  for (const bad of [
    `getByText(process.exit())`,
    `getByRole('button', { name: `,
    `getByText('a').click()`,
    'getByText(`${x}`)',
    `getByText('a') ; boom`,
  ]) {
    expect(() => parseLocatorInput(bad), bad).toThrow(/cannot read the locator .* at column \d+; write e\.g\./);
  }
});
