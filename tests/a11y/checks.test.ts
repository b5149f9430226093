import { test, expect } from '@playwright/test';
import type { UiNode } from '../../device-runtime/protocol/index.js';
import { auditScreen, selectRules } from '../../framework/a11y/audit-screen.js';
import { contrastRatio } from '../../framework/a11y/contrast.js';
import { RULE_NAMES, type Pixels, type RuleName } from '../../framework/a11y/rules.js';

/**
 * One screen per rule, built as a node tree (and, for the contrast rules, as pixels), with the
 * finding it must give and the border it must not: each rule runs alone, as `rules: { only }` runs it.
 */

const SCREEN = { width: 1080, height: 2400 };
const DENSITY = 420; // 126 px = 48 dp exactly
let next = 0;
function node(p: Partial<UiNode> & { bounds: UiNode['bounds'] }): UiNode {
  return {
    id: `n${++next}`,
    role: 'text',
    text: null,
    desc: null,
    clickable: false,
    editable: false,
    scrollable: false,
    enabled: true,
    focused: false,
    selected: false,
    parent: null,
    depth: 0,
    ...p,
  };
}
const run = (rule: RuleName, nodes: UiNode[], pixels: Pixels | null = null) =>
  auditScreen({ nodes, density: DENSITY, screen: SCREEN, pixels }, [rule]);

test('SpeakableTextPresentCheck: an icon button with no description fails; a description, or a labelled child, passes', () => {
  const bare = node({
    role: 'button',
    class: 'android.widget.ImageButton',
    clickable: true,
    bounds: [0, 200, 168, 368],
  });
  const named = node({
    role: 'button',
    class: 'android.widget.ImageButton',
    clickable: true,
    desc: 'Share',
    bounds: [200, 200, 368, 368],
  });
  const row = node({ role: 'listitem', clickable: true, bounds: [0, 400, 1080, 600] });
  const label = node({ text: 'Wi-Fi', parent: row.id, depth: 1, bounds: [0, 400, 1080, 500] });
  const image = node({ role: 'image', class: 'android.widget.ImageView', bounds: [0, 700, 400, 1000] });
  const f = run('SpeakableTextPresentCheck', [bare, named, row, label, image]);
  expect(f.map((x) => x.node.id)).toEqual([bare.id, image.id]);
  expect(f[0]!.severity).toBe('error');
  expect(f[0]!.message).toContain('contentDescription');
});

test('TouchTargetSizeCheck: exactly 48 dp passes, one px less fails, with the size in dp', () => {
  const exact = node({ role: 'button', clickable: true, desc: 'A', bounds: [100, 200, 226, 326] });
  const short = node({ role: 'button', clickable: true, desc: 'B', bounds: [300, 200, 426, 325] });
  const small = node({ role: 'button', clickable: true, desc: 'Close', bounds: [500, 200, 584, 284] });
  const f = run('TouchTargetSizeCheck', [exact, short, small]);
  expect(f.map((x) => x.node.id)).toEqual([short.id, small.id]);
  expect(f[1]!.measured).toEqual({ kind: 'size', widthDp: 32, heightDp: 32, requiredDp: 48 });
  expect(f[1]!.severity).toBe('error');
  expect(f[0]!.message).toContain('47.6 dp tall');
});

test('TouchTargetSizeCheck: a row cut by its scrolling list is not judged', () => {
  const list = node({ role: 'list', scrollable: true, bounds: [0, 200, 1080, 1200] });
  const cut = node({
    role: 'listitem',
    clickable: true,
    text: 'Row',
    parent: list.id,
    depth: 1,
    bounds: [0, 1150, 1080, 1200],
  });
  expect(run('TouchTargetSizeCheck', [list, cut])).toEqual([]);
});

/** A node's pixels: a background with a block of foreground (as much as text covers), in a 1080×2400 picture at scale 1. */
function pixels(bounds: UiNode['bounds'], bg: number, fg: number): Pixels {
  const w = SCREEN.width,
    h = SCREEN.height;
  const data = new Uint8Array(w * h * 4).fill(255);
  const put = (x: number, y: number, c: number) => {
    const i = (y * w + x) * 4;
    data[i] = (c >> 16) & 255;
    data[i + 1] = (c >> 8) & 255;
    data[i + 2] = c & 255;
    data[i + 3] = 255;
  };
  for (let y = bounds[1]; y < bounds[3]; y++)
    for (let x = bounds[0]; x < bounds[2]; x++) {
      const ink = x > bounds[0] + 20 && x < bounds[0] + 120 && y > bounds[1] + 20 && y < bounds[1] + 50;
      put(x, y, ink ? fg : bg);
    }
  return { width: w, height: h, data };
}

/** The darkest grey whose ratio on white, rounded as ATF rounds it, is `ratio`; and the next lighter one. */
function greyAt(ratio: number): number {
  for (let g = 255; g >= 0; g--) {
    const c = (g << 16) | (g << 8) | g;
    if (Math.round(contrastRatio(0xffffff, c) * 100) / 100 >= ratio) return g;
  }
  throw new Error('none');
}

test('TextContrastCheck: 4.5:1 passes; below it is borderline, below 3:1 fails for any size (both warnings, as ATF grades pixels)', () => {
  const b: UiNode['bounds'] = [0, 300, 1080, 396];
  const text = node({ class: 'android.widget.TextView', text: 'Rated 4.5 of 5', bounds: b });
  const g = greyAt(4.5);
  const at = (g << 16) | (g << 8) | g;
  expect(Math.round(contrastRatio(0xffffff, at) * 100) / 100).toBeGreaterThanOrEqual(4.5);
  expect(run('TextContrastCheck', [text], pixels(b, 0xffffff, at))).toEqual([]);
  const lighter = ((g + 3) << 16) | ((g + 3) << 8) | (g + 3);
  const borderline = run('TextContrastCheck', [text], pixels(b, 0xffffff, lighter));
  expect(borderline).toHaveLength(1);
  expect(borderline[0]!.severity).toBe('warning');
  expect(borderline[0]!.measured).toMatchObject({ kind: 'contrast', required: 4.5, background: '#ffffff' });
  const faint = run('TextContrastCheck', [text], pixels(b, 0xffffff, 0xc4c7c5));
  expect(faint[0]!.measured).toMatchObject({ kind: 'contrast', ratio: 1.7, required: 3, foreground: '#c4c7c5' });
  // Dark text on light and light text on dark read the same: the more frequent colour is the background.
  expect(run('TextContrastCheck', [text], pixels(b, 0x202124, 0xffffff))).toEqual([]);
  // One colour: nothing to measure.
  expect(run('TextContrastCheck', [text], pixels(b, 0xffffff, 0xffffff))).toEqual([]);
  expect(run('TextContrastCheck', [text], null)).toEqual([]);
});

test('ImageContrastCheck: 3:1 passes, less fails', () => {
  const b: UiNode['bounds'] = [0, 500, 400, 800];
  const img = node({ role: 'image', class: 'android.widget.ImageView', desc: 'Lamp', bounds: b });
  const g = greyAt(3);
  expect(run('ImageContrastCheck', [img], pixels(b, 0xffffff, (g << 16) | (g << 8) | g))).toEqual([]);
  const f = run('ImageContrastCheck', [img], pixels(b, 0xffffff, 0xc4c7c5));
  expect(f[0]).toMatchObject({ severity: 'warning', measured: { ratio: 1.7, required: 3 } });
});

test('DuplicateClickableBoundsCheck: two clickable nodes on the same bounds fail; a non-clickable one does not', () => {
  const a = node({ role: 'button', clickable: true, text: 'A', bounds: [0, 200, 500, 400] });
  const b = node({ role: 'button', clickable: true, text: 'B', bounds: [0, 200, 500, 400] });
  const c = node({ role: 'text', text: 'C', bounds: [0, 200, 500, 400] });
  const f = run('DuplicateClickableBoundsCheck', [a, b, c]);
  expect(f).toHaveLength(1);
  expect(f[0]).toMatchObject({ severity: 'error', node: a, related: [b] });
  expect(run('DuplicateClickableBoundsCheck', [a, c])).toEqual([]);
});

test('DuplicateSpeakableTextCheck: two clickable nodes read alike warn; two texts are info; a row and its own label are one', () => {
  const a = node({ role: 'button', clickable: true, text: 'Add to cart', bounds: [0, 200, 500, 344] });
  const b = node({ role: 'button', clickable: true, text: 'Add to cart', bounds: [0, 400, 500, 544] });
  const t1 = node({ text: 'Lamp', bounds: [0, 600, 500, 696] });
  const t2 = node({ text: 'lamp', bounds: [0, 700, 500, 796] });
  const row = node({ role: 'listitem', clickable: true, bounds: [0, 800, 1080, 1000] });
  const label = node({ text: 'Wi-Fi', parent: row.id, depth: 1, bounds: [0, 800, 1080, 900] });
  const f = run('DuplicateSpeakableTextCheck', [a, b, t1, t2, row, label]);
  expect(f.map((x) => [x.severity, x.node.id])).toEqual([
    ['warning', a.id],
    ['info', t1.id],
  ]);
});

test('EditableContentDescCheck: an editable field with a description fails; with a hint it passes', () => {
  const bad = node({ role: 'textbox', editable: true, clickable: true, desc: 'Email', bounds: [0, 200, 1080, 360] });
  const good = node({ role: 'textbox', editable: true, clickable: true, hint: 'Email', bounds: [0, 400, 1080, 560] });
  expect(run('EditableContentDescCheck', [bad, good]).map((f) => [f.severity, f.node.id])).toEqual([['error', bad.id]]);
});

test('RedundantDescriptionCheck: "Save button" warns, "Save" and "Buttonhole" do not', () => {
  const bad = node({ role: 'button', clickable: true, desc: 'Save button', bounds: [0, 200, 300, 344] });
  const ok = node({ role: 'button', clickable: true, desc: 'Save', bounds: [0, 400, 300, 544] });
  const word = node({ role: 'button', clickable: true, desc: 'Buttonhole size', bounds: [0, 600, 300, 744] });
  const f = run('RedundantDescriptionCheck', [bad, ok, word]);
  expect(f.map((x) => [x.severity, x.node.id])).toEqual([['warning', bad.id]]);
  expect(f[0]!.message).toContain('"Save"');
});

test('LinkPurposeUnclearCheck: "Learn more" warns, "Read the return policy" does not', () => {
  const bad = node({ role: 'text', clickable: true, text: 'Learn more', bounds: [0, 200, 500, 330] });
  const ok = node({ role: 'text', clickable: true, text: 'Read the return policy', bounds: [0, 400, 500, 530] });
  const plain = node({ role: 'text', text: 'here', bounds: [0, 600, 500, 696] });
  expect(run('LinkPurposeUnclearCheck', [bad, ok, plain]).map((f) => [f.severity, f.node.id])).toEqual([
    ['warning', bad.id],
  ]);
});

test('TraversalOrderCheck: a sibling read after one it sits above warns; reading order top-down and left-right passes', () => {
  const parent = node({ role: 'view', bounds: [0, 200, 1080, 1000] });
  const top = node({ text: 'Title', parent: parent.id, depth: 1, bounds: [0, 200, 1080, 296] });
  const left = node({ text: 'Left', parent: parent.id, depth: 1, bounds: [0, 300, 500, 396] });
  const right = node({ text: 'Right', parent: parent.id, depth: 1, bounds: [500, 300, 1080, 396] });
  expect(run('TraversalOrderCheck', [parent, top, left, right])).toEqual([]);
  const f = run('TraversalOrderCheck', [parent, left, right, top]);
  expect(f.map((x) => [x.severity, x.node.id, x.related?.[0]?.id])).toEqual([['warning', top.id, left.id]]);
  expect(run('TraversalOrderCheck', [parent, right, left]).map((x) => x.node.id)).toEqual([left.id]);
});

test('rules: only, except, and an unknown name is an INVALID_ARGUMENT error naming the rules', () => {
  expect(selectRules('x', { only: ['TouchTargetSizeCheck'] })).toEqual(['TouchTargetSizeCheck']);
  expect(selectRules('x', { except: ['TextContrastCheck', 'ImageContrastCheck'] })).toHaveLength(RULE_NAMES.length - 2);
  expect(() => selectRules('app.accessibilityAudit', { only: ['TouchTargetCheck' as RuleName] })).toThrow(
    /app\.accessibilityAudit: options\.rules\.only: unknown rule "TouchTargetCheck" \(did you mean TouchTargetSizeCheck\?\)/,
  );
  try {
    selectRules('x', { except: ['Nope' as RuleName] });
  } catch (e) {
    expect((e as { code: string }).code).toBe('INVALID_ARGUMENT');
  }
});
