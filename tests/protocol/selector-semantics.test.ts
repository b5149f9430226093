/**
 * The one text semantics of the selector engine (docs/protocol.md#text-matching), as a table:
 * each row is a selector, the screen it runs on, and the nodes it must match. The simulator's
 * ui_find and ui_wait_for read text through the same engine (device-runtime/sim/ui/query.ts).
 */
import { expect, test } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { parseSelector, resolveSteps, SelectorSyntaxError } from '../../device-runtime/protocol/selector.js';
import { findNodes, textOnScreen } from '../../device-runtime/sim/ui/query.js';
import { SimError } from '../../device-runtime/sim/core/sim-error.js';

function node(id: string, role: string, text: string | null, extra: Partial<UiNode> = {}): UiNode {
  return {
    id,
    role,
    text,
    desc: null,
    bounds: [0, 0, 10, 10],
    clickable: false,
    editable: false,
    scrollable: false,
    enabled: true,
    focused: false,
    selected: false,
    parent: null,
    ...extra,
  };
}

/** A small screen: a toolbar, a button, an icon with only a description, a list row with a checkbox. */
const SCREEN: UiNode[] = [
  node('root', 'group', null),
  node('title', 'text', 'Shopping  List', { parent: 'root' }),
  node('save', 'button', 'Save draft', { parent: 'root', clickable: true, res_id: 'com.x:id/save' }),
  node('exact', 'button', 'Save', { parent: 'root', clickable: true, res_id: 'com.x:id/save_exact' }),
  node('icon', 'button', null, { parent: 'root', desc: 'Add item', clickable: true, res_id: 'com.x:id/add' }),
  node('row', 'listitem', null, { parent: 'root' }),
  node('check', 'checkbox', 'Milk', { parent: 'row', checkable: true, checked: true }),
  node('note', 'text', ' oat   milk, 2 l ', { parent: 'row' }),
];

const ROWS: Array<[selector: string, matches: string[], why: string]> = [
  ['text=save', ['save', 'exact'], 'text= is a substring, case-insensitive'],
  ['Save', ['save', 'exact'], 'a part without engine= is text='],
  ['text="Save"', ['exact'], 'quoted is exact: whole text, case-sensitive'],
  ['text="save"', [], 'exact is case-sensitive'],
  ["text='Save draft'", ['save'], 'single quotes are exact too'],
  ['text=shopping list', ['title'], 'runs of whitespace count as one space'],
  ['text="Shopping List"', [], 'exact does not normalize whitespace'],
  ['text=  oat milk ', ['note'], 'the written text is normalized too'],
  ['text=/^Save$/', ['exact'], 'a regex tests the text'],
  ['text=/draft/i', ['save'], 'regex flags apply'],
  ['text=Add item', [], 'text= reads the text only, not the description'],
  ['desc=add', ['icon'], 'desc= reads the content description, substring, case-insensitive'],
  ['desc="Add item"', ['icon'], 'desc= quoted is exact'],
  ['role=button[name="Save"]', ['exact'], 'role name quoted is exact'],
  ['role=button[name=save]', ['save', 'exact'], 'role name unquoted is a substring, case-insensitive'],
  ['role=button[name="Add item"]', ['icon'], 'role name matches the description of a node without text'],
  ['role=checkbox[checked=true]', ['check'], 'role attributes'],
  ['role=listitem >> has-text=milk', ['row'], 'has-text reads the full text (the row itself has none)'],
  ['role=listitem >> has-text="Milk"', ['row'], 'has-text quoted is case-sensitive: "Milk" is there'],
  ['role=listitem >> has-text="milk,"', ['row'], 'quoted has-text still normalizes whitespace ("oat   milk, 2 l")'],
  ['role=listitem >> has-text="MILK"', [], 'quoted has-text is case-sensitive'],
  ['role=listitem >> role=checkbox', ['check'], '>> searches the descendants of the previous matches'],
  ['id=save', ['save'], 'id= is the entry name in any package'],
  ['id=com.x:id/save_exact', ['exact'], 'or a full id, equal'],
  ['role=button >> nth=-1', ['icon'], 'nth counts from the end when negative'],
];

for (const [selector, want, why] of ROWS) {
  test(`${selector} → [${want.join(', ')}]: ${why}`, () => {
    expect(resolveSteps(SCREEN, parseSelector(selector)).map((n) => n.id)).toEqual(want);
  });
}

test('a selector that cannot be parsed says what to write', () => {
  expect(() => parseSelector('role=button[label=x]')).toThrow(SelectorSyntaxError);
  expect(() => parseSelector('nth=first')).toThrow(/nth= takes an integer/);
  expect(() => parseSelector('color=red')).toThrow(/unknown selector engine "color="/);
});

test('ui_find: the selector and every exact field hold for the same node; the fields keep their exact meaning', () => {
  const ids = (args: Parameters<typeof findNodes>[1]) => findNodes(SCREEN, args).map((n) => n.id);
  expect(ids({ text: 'Save' })).toEqual(['exact']); // exact, as documented, not a substring
  expect(ids({ text: 'save' })).toEqual([]);
  expect(ids({ desc: 'Add item' })).toEqual(['icon']);
  expect(ids({ res_id: 'save' })).toEqual(['save']);
  expect(ids({ res_id: 'com.x:id/add' })).toEqual(['icon']);
  expect(ids({ role: 'checkbox' })).toEqual(['check']);
  expect(ids({ selector: 'text=save' })).toEqual(['save', 'exact']);
  expect(ids({ selector: 'text=save', res_id: 'save' })).toEqual(['save']);
  expect(ids({ selector: 'role=listitem >> has-text=milk', role: 'listitem' })).toEqual(['row']);
  expect(ids({})).toEqual(SCREEN.map((n) => n.id));
  let error: unknown;
  try {
    findNodes(SCREEN, { selector: 'role=button[label=x]' });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SimError);
  expect((error as SimError).envelope).toMatchObject({
    code: 'INVALID_ARGUMENT',
    message: expect.stringMatching(/^ui_find: unknown role attribute \[label\]/),
  });
});

test("ui_wait_for: text is on screen when a node's text or description contains it, as text= / desc= read it", () => {
  expect(textOnScreen(SCREEN, 'shopping list')).toBe(true);
  expect(textOnScreen(SCREEN, 'ADD ITEM')).toBe(true);
  expect(textOnScreen(SCREEN, 'draft')).toBe(true);
  expect(textOnScreen(SCREEN, 'Milk oat')).toBe(false); // one node's text, not text across nodes
  expect(textOnScreen(SCREEN, 'bread')).toBe(false);
});
