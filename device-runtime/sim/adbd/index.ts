export { startAdbd, type AdbdOptions, type RunningAdbd } from './server.js';
export { AndroidDevice, type AndroidDeviceOptions, type InstalledPackage } from './device.js';
export { simRuntimeService, type RuntimeService, type SimRuntimeServiceOptions } from './runtime-service.js';
export { AuthorizedKeys } from './authorized-keys.js';
export { userKeySources, checkKeyFile, type KeySource } from './key-files.js';
