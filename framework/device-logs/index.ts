export { deviceLogsFeature, deviceLogsMode, type DeviceLogsMode } from './feature.js';
export { crashesIn, type CrashReport } from './crashes.js';
