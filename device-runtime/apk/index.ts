/**
 * APK reading and install preflight, used by the simulator's installer and `nestwright inspect`.
 *
 *   const info = await inspectApk('app.apk');           // or [base, ...splits], or 'app.apks'
 *   const report = preflight(info, { abis: ['x86_64'], page_size: 4096, sdk_int: 35 });
 *   const report2 = await preflightPaths(paths, device); // never throws: INVALID_APK report instead
 */
export { inspectApk } from './inspect.js';
export {
  preflight,
  preflightPaths,
  inspectAndPreflight,
  selectAbi,
  type InstalledApp,
  type PreflightOptions,
} from './preflight.js';
export { ApkError } from './apk-error.js';
export { selectSplits, type SplitChoice, type SplitDevice } from './split-selection.js';
export * from './model.js';
export type { DeviceTraits, PreflightReport, PreflightCheck } from '../protocol/preflight.js';
