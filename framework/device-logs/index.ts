export { deviceLogsFeature, deviceLogsMode, type DeviceLogsMode } from './feature.js';
export { deviceLogsFixtures } from './fixture.js';
export { crashesIn, type CrashReport } from './crashes.js';
