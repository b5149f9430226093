import type { Bounds, UiNode } from '../../device-runtime/protocol/index.js';

/**
 * The checks of Google's Accessibility Test Framework for Android (ATF) that an audit runs, under
 * ATF's class names so Android developers recognise them, each with the severity ATF gives its
 * finding (`error`, `warning`, `info`, as its AccessibilityCheckResultType) and the ATF source it
 * follows. docs/accessibility.md describes each one.
 */
/** The name of an audit rule: ATF's check class name. */
export type RuleName =
  | 'SpeakableTextPresentCheck'
  | 'TouchTargetSizeCheck'
  | 'TextContrastCheck'
  | 'ImageContrastCheck'
  | 'DuplicateClickableBoundsCheck'
  | 'DuplicateSpeakableTextCheck'
  | 'EditableContentDescCheck'
  | 'RedundantDescriptionCheck'
  | 'LinkPurposeUnclearCheck'
  | 'TraversalOrderCheck';

export const RULES: Record<RuleName, { severity: Severity; pixels: boolean; source: string }> = {
  SpeakableTextPresentCheck: { severity: 'error', pixels: false, source: 'checks/SpeakableTextPresentCheck.java' },
  TouchTargetSizeCheck: { severity: 'error', pixels: false, source: 'checks/TouchTargetSizeCheck.java' },
  TextContrastCheck: {
    severity: 'warning',
    pixels: true,
    source: 'checks/TextContrastCheck.java (heavyweight evaluation), utils/contrast/ContrastSwatch.java',
  },
  ImageContrastCheck: {
    severity: 'warning',
    pixels: true,
    source: 'checks/ImageContrastCheck.java, utils/contrast/ContrastSwatch.java',
  },
  DuplicateClickableBoundsCheck: {
    severity: 'error',
    pixels: false,
    source: 'checks/DuplicateClickableBoundsCheck.java',
  },
  DuplicateSpeakableTextCheck: {
    severity: 'warning',
    pixels: false,
    source: 'checks/DuplicateSpeakableTextCheck.java',
  },
  EditableContentDescCheck: { severity: 'error', pixels: false, source: 'checks/EditableContentDescCheck.java' },
  RedundantDescriptionCheck: { severity: 'warning', pixels: false, source: 'checks/RedundantDescriptionCheck.java' },
  LinkPurposeUnclearCheck: { severity: 'warning', pixels: false, source: 'checks/LinkPurposeUnclearCheck.java' },
  TraversalOrderCheck: { severity: 'warning', pixels: false, source: 'checks/TraversalOrderCheck.java' },
};

export const RULE_NAMES = Object.keys(RULES) as RuleName[];

/** How grave a finding is, as ATF grades it (its AccessibilityCheckResultType). */
export type Severity = 'error' | 'warning' | 'info';
/** Higher is graver: `minimumSeverity` keeps findings at or above it. */
export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** What a check measured, in the unit the rule's threshold is stated in. */
export type Measured =
  | { kind: 'contrast'; ratio: number; required: number; foreground: string; background: string }
  | { kind: 'size'; widthDp: number; heightDp: number; requiredDp: number }
  | { kind: 'none' };

/** One finding of a check, on one node, before the audit names it with a locator. */
export interface RawFinding {
  rule: RuleName;
  severity: Severity;
  node: UiNode;
  /** What is wrong and how to fix it. */
  message: string;
  measured: Measured;
  /** Other nodes the finding involves (the duplicate, the node out of order). */
  related?: UiNode[];
}

/**
 * What the checks look at: the nodes (the observation's, `detail: 'full'`, so parents are kept),
 * the screen's density in dpi (dp = px × 160 / dpi) and, for the contrast rules, the screenshot.
 */
export interface AuditInput {
  nodes: UiNode[];
  density: number;
  screen: { width: number; height: number };
  /** Decoded RGBA pixels of the screen (any scale), or null when the runtime cannot take one. */
  pixels: Pixels | null;
}

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row-major. */
  data: Uint8Array;
}

export const width = (b: Bounds) => b[2] - b[0];
export const height = (b: Bounds) => b[3] - b[1];
/** px to dp at `density` dpi, to one decimal. */
export const toDp = (px: number, density: number) => Math.round(((px * 160) / density) * 10) / 10;
