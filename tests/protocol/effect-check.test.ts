import { expect, test } from '@playwright/test';
import {
  screenChanged,
  settle,
  type Clock,
  type Observation,
  type UiNode,
} from '../../device-runtime/protocol/index.js';

/**
 * The effect check after an action (issue 28, item 4): what changes on its own is not taken for
 * the action's effect, so a dropped tap is repeated; a look without the tree says nothing.
 */

const node = (id: string, over: Partial<UiNode> = {}): UiNode => ({
  id,
  role: 'text',
  text: null,
  desc: null,
  bounds: [0, 0, 100, 100],
  clickable: false,
  editable: false,
  scrollable: false,
  enabled: true,
  focused: false,
  selected: false,
  parent: null,
  ...over,
});
const obs = (nodes: UiNode[], over: Partial<Observation> = {}): Observation => ({
  snapshot_id: `s_${Math.random()}`,
  space_id: 'sp',
  package: 'com.shop',
  activity: '.CartActivity',
  screen: { width: 1080, height: 2400, rotation: 0 },
  nodes,
  screenshot: null,
  keyboard: null,
  timestamp_ms: 0,
  ...over,
});
const apply = node('apply', {
  role: 'button',
  text: 'Apply',
  clickable: true,
  res_id: 'com.shop:id/apply_coupon',
  bounds: [700, 900, 1000, 1060],
});
const total = (t: string) => node('total', { text: t, res_id: 'com.shop:id/total', bounds: [0, 1100, 1080, 1200] });
const toast = (t: string) => node('toast', { text: t, res_id: 'android:id/toast', bounds: [140, 1800, 940, 1920] });

test('a system toast timing out is not the effect of a tap; a new toast, a changed total or a closed dialog is', () => {
  const withToast = obs([apply, total('Total: $10.00'), toast('Coupon NOPE is not valid')]);
  const toastGone = obs([apply, total('Total: $10.00')]);
  expect(screenChanged(withToast, toastGone, apply)).toBe('no');
  expect(screenChanged(withToast, obs([apply, total('Total: $9.00')]), apply)).toBe('yes');
  expect(screenChanged(toastGone, obs([apply, total('Total: $10.00'), toast('Coupon X is not valid')]), apply)).toBe(
    'yes',
  );
  expect(screenChanged(withToast, obs([apply, total('Total: $9.00'), toast('Coupon applied: 10% off')]), apply)).toBe(
    'yes',
  );
  // A node of the app's own package going away is an effect (a row removed).
  expect(
    screenChanged(
      obs([apply, total('Total: $10.00'), node('row', { text: 'Speaker x1', res_id: 'com.shop:id/cart_item' })]),
      toastGone,
      apply,
    ),
  ).toBe('yes');
  // Nothing changed but where things are (a snackbar sliding): no effect.
  expect(
    screenChanged(toastGone, obs([apply, { ...total('Total: $10.00'), bounds: [0, 1000, 1080, 1100] }]), apply),
  ).toBe('no');
  // The permission prompt's button: the prompt closing (another package, another activity) is its effect.
  const allow = node('allow', {
    role: 'button',
    text: 'While using the app',
    res_id: 'com.google.android.permissioncontroller:id/permission_allow_foreground_only_button',
  });
  const prompt = obs(
    [
      node('msg', {
        text: 'Allow Shop to access this device’s location?',
        res_id: 'com.google.android.permissioncontroller:id/permission_message',
      }),
      allow,
    ],
    { package: 'com.google.android.permissioncontroller', activity: '.permission.ui.GrantPermissionsActivity' },
  );
  expect(screenChanged(prompt, prompt, allow)).toBe('no');
  expect(
    screenChanged(
      prompt,
      obs([node('addr', { editable: true, res_id: 'com.shop:id/address' })], { activity: '.CheckoutActivity' }),
      allow,
    ),
  ).toBe('yes');
  // The keyboard going away (a back with nothing under the keyboard) is an effect; a look without the tree cannot tell.
  expect(screenChanged(obs([apply], { keyboard: { bounds: [0, 1394, 1080, 2274] } }), obs([apply]), null)).toBe('yes');
  expect(screenChanged(toastGone, obs([], { tree_missing: true }), apply)).toBe('unknown');
  // A tapped field that has the focus took the tap, even when it had it already.
  const field = node('f', {
    role: 'textbox',
    editable: true,
    focused: true,
    res_id: 'com.shop:id/coupon',
    bounds: [0, 900, 700, 1060],
  });
  expect(screenChanged(obs([field, apply]), obs([field, apply]), field)).toBe('yes');
  expect(
    screenChanged(obs([{ ...field, focused: false }, apply]), obs([{ ...field, focused: false }, apply]), field),
  ).toBe('no');
});

test('settle: looks without the tree do not count; it judges the first look with one', async () => {
  let t = 0;
  const clock: Clock = { now: () => t, sleep: async (ms) => void (t += ms) };
  const before = obs([apply, total('Total: $10.00')]);
  const looks = [obs([], { tree_missing: true }), obs([], { tree_missing: true }), before, before, before];
  let n = 0;
  const r = await settle(async () => looks[Math.min(n++, looks.length - 1)]!, before, apply, screenChanged, clock);
  // Two looks without the tree, then the three looks of a settle: no effect, so the tap is repeated.
  expect(r.effect).toBe(false);
  expect(n).toBe(5);
  const moved = [
    obs([], { tree_missing: true }),
    obs([node('x', { text: 'Checkout', res_id: 'com.shop:id/title' })], { activity: '.CheckoutActivity' }),
  ];
  n = 0;
  const r2 = await settle(async () => moved[Math.min(n++, moved.length - 1)]!, before, apply, screenChanged, clock);
  expect(r2.effect).toBe(true);
  expect(n).toBe(2);
  // A tree that never comes back: cannot tell, so the action is not repeated.
  n = 0;
  const r3 = await settle(async () => (n++, obs([], { tree_missing: true })), before, apply, screenChanged, clock);
  expect(r3.effect).toBe(true);
  expect(n).toBeGreaterThan(3);
});
