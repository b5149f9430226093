import type { Check } from '../check.js';
import { netProxyCheck, netProxyErrorsCheck } from './net-proxy.js';
import { notAdvertisedCheck } from './not-advertised.js';
import { screenRecordCheck } from './screen-record.js';
import { observeDiffCheck } from './observe-diff.js';
import { selectorActionsCheck } from './selector-actions.js';
import { webviewCheck } from './webview.js';

/**
 * The extensions' checks: one file each in this folder, listed here. An extension's check runs
 * its behaviour when runtime_info advertises it and expects NOT_SUPPORTED when it does not.
 */
export const extensionChecks: Check[] = [
  selectorActionsCheck,
  webviewCheck,
  netProxyCheck,
  netProxyErrorsCheck,
  screenRecordCheck,
  observeDiffCheck,
  notAdvertisedCheck,
];
