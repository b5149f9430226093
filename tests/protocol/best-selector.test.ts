import { expect, test } from '@playwright/test';
import {
  bestSelector,
  selectorWithoutObservation,
  suggestLocators,
  uniqueSelectorFor,
} from '../../device-runtime/protocol/best-selector.js';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps } from '../../device-runtime/protocol/selector.js';
import { parseLocatorInput } from '../../framework/tools/expression.js';

/** The one candidate generator seen through each of its four entry points, on one screen. */

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

const SCREEN = {
  nodes: [
    node('title', { text: 'Groceries', res_id: 'com.shop:id/title' }),
    node('save', { role: 'button', text: 'Save', res_id: 'com.shop:id/save', clickable: true }),
    node('list', { role: 'list', scrollable: true }),
    node('row1', { role: 'listitem', parent: 'list', res_id: 'com.shop:id/row' }),
    node('milk', { text: 'Milk', parent: 'row1', res_id: 'com.shop:id/name' }),
    node('done1', { role: 'checkbox', parent: 'row1', res_id: 'com.shop:id/done', clickable: true }),
    node('row2', { role: 'listitem', parent: 'list', res_id: 'com.shop:id/row' }),
    node('eggs', { text: 'Eggs', parent: 'row2', res_id: 'com.shop:id/name' }),
    node('done2', { role: 'checkbox', parent: 'row2', res_id: 'com.shop:id/done', clickable: true }),
    node('dialog', { role: 'group', res_id: 'com.shop:id/confirm' }),
    node('ok1', { role: 'button', text: 'OK', parent: 'dialog', clickable: true }),
    node('ok2', { role: 'button', text: 'OK', clickable: true }),
    node('share1', { role: 'image', desc: 'Share', clickable: true }),
    node('share2', { role: 'image', desc: 'Share', clickable: true }),
    node('next', { role: 'button', text: 'Next >> more', res_id: 'com.shop:id/next', clickable: true }),
    node('other', { text: 'Widget', res_id: 'com.widget:id/title' }),
  ],
};
const byId = (id: string) => SCREEN.nodes.find((n) => n.id === id)!;
const names = (selector: string) => resolveSteps(SCREEN.nodes, parseSelector(selector)).map((n) => n.id);

test('suggestLocators: every one-step candidate ranked id > role > desc > text with its code, then a chain or a position only when needed', () => {
  expect(suggestLocators(SCREEN, 'save')).toEqual([
    { strategy: 'id', selector: 'id=save', code: "app.getById('save')", matches: 1, strictSafe: true, score: 100 },
    {
      strategy: 'role',
      selector: 'role=button[name="Save"]',
      code: "app.getByRole('button', { name: 'Save', exact: true })",
      matches: 1,
      strictSafe: true,
      score: 90,
    },
    {
      strategy: 'text',
      selector: 'text="Save"',
      code: "app.getByText('Save', { exact: true })",
      matches: 1,
      strictSafe: true,
      score: 70,
    },
  ]);
  // Another package's node ends the same way: the full id.
  expect(suggestLocators(SCREEN, 'title')[0]).toMatchObject({
    selector: 'id=com.shop:id/title',
    code: "app.getById('com.shop:id/title')",
  });
  // A row's checkbox: the shared id is listed with its two matches, and the row's chain wins.
  const done = suggestLocators(SCREEN, 'done2');
  expect(done[0]).toMatchObject({
    strategy: 'chain',
    selector: 'id=row >> has-text="Eggs" >> id=done',
    code: "app.getById('row').filter({ hasText: 'Eggs' }).getById('done')",
    strictSafe: true,
    score: 60,
  });
  expect(done).toContainEqual(
    expect.objectContaining({ selector: 'id=done', matches: 2, strictSafe: false, score: 0 }),
  );
  // Twins: by position, last.
  expect(suggestLocators(SCREEN, 'share2')[0]).toMatchObject({
    strategy: 'nth',
    selector: 'role=image[name="Share"] >> nth=1',
    code: "app.getByRole('image', { name: 'Share', exact: true }).nth(1)",
    score: 10,
  });
  // A label the selector syntax cannot carry (`>>`) is not offered.
  expect(suggestLocators(SCREEN, 'next').map((s) => s.selector)).toEqual(['id=next']);
  expect(suggestLocators(SCREEN, 'nope')).toEqual([]);
});

test('suggestLocators: whatever is strict-safe names its node alone, as a selector and as code', () => {
  for (const n of SCREEN.nodes)
    for (const s of suggestLocators(SCREEN, n.id).filter((x) => x.strictSafe)) {
      expect(names(s.selector), s.selector).toEqual([n.id]);
      expect(
        resolveSteps(SCREEN.nodes, parseLocatorInput(s.code)).map((m) => m.id),
        s.code,
      ).toEqual([n.id]);
    }
  // `.filter({ hasText })` in code matches any case: a chain only its selector tells apart is not safe as code.
  const rows = {
    nodes: [
      node('r1', { role: 'listitem' }),
      node('t1', { text: 'MILK', parent: 'r1' }),
      node('c1', { role: 'checkbox', parent: 'r1' }),
      node('r2', { role: 'listitem' }),
      node('t2', { text: 'Milk', parent: 'r2' }),
      node('c2', { role: 'checkbox', parent: 'r2' }),
    ],
  };
  expect(bestSelector(rows.nodes[5]!, rows)).toBe('role=listitem >> has-text="Milk" >> role=checkbox');
  expect(suggestLocators(rows, 'c2').find((s) => s.strictSafe)).toMatchObject({
    strategy: 'nth',
    selector: 'role=checkbox >> nth=1',
  });
});

test('bestSelector: the first candidate that names the node alone — own, through its row, a named ancestor, its position', () => {
  expect(bestSelector(byId('save'), SCREEN)).toBe('id=save');
  expect(bestSelector(byId('done1'), SCREEN)).toBe('id=row >> has-text="Milk" >> id=done');
  expect(bestSelector(byId('ok1'), SCREEN)).toBe('id=confirm >> role=button[name="OK"]');
  expect(bestSelector(byId('ok2'), SCREEN)).toBe('role=button[name="OK"] >> nth=1');
  expect(bestSelector(byId('share1'), SCREEN)).toBe('role=image[name="Share"] >> nth=0');
  for (const n of SCREEN.nodes) expect(names(bestSelector(n, SCREEN)), n.id).toEqual([n.id]);
});

test("uniqueSelectorFor: the original's kind and exactness first, a text view by text=, and never by position", () => {
  const nodes = SCREEN.nodes;
  expect(uniqueSelectorFor(nodes, byId('save'), parseSelector('id=save_button'))).toBe('id=save');
  expect(uniqueSelectorFor(nodes, byId('save'), parseSelector('text=Sav'))).toBe('text=Save');
  expect(uniqueSelectorFor(nodes, byId('save'), parseSelector('text="Saved"'))).toBe('text="Save"');
  expect(uniqueSelectorFor(nodes, byId('save'), parseSelector('role=button[name=Sav]'))).toBe('role=button[name=Save]');
  expect(uniqueSelectorFor(nodes, byId('milk'), [])).toBe('text="Milk"');
  expect(uniqueSelectorFor(nodes, byId('done2'), parseSelector('id=done'))).toBe(
    'id=row >> has-text="Eggs" >> id=done',
  );
  expect(uniqueSelectorFor(nodes, byId('ok1'), parseSelector('text="Okay"'))).toBe(
    'id=confirm >> role=button[name="OK"]',
  );
  expect(uniqueSelectorFor(nodes, byId('share2'), [])).toBeNull();
});

test('selectorWithoutObservation: by its name first, then its id, then its role', () => {
  expect(selectorWithoutObservation(byId('save'))).toBe('role=button[name="Save"]');
  expect(selectorWithoutObservation(byId('share1'))).toBe('role=image[name="Share"]');
  expect(selectorWithoutObservation(byId('done1'))).toBe('id=done');
  expect(selectorWithoutObservation(byId('next'))).toBe('id=next');
  expect(selectorWithoutObservation(node('x', { role: 'switch' }))).toBe('role=switch');
  expect(selectorWithoutObservation(node('q', { role: 'button', text: 'Say "hi"' }))).toBe(
    `role=button[name='Say "hi"']`,
  );
});
