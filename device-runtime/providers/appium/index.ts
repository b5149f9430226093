export { AppiumToolTransport, type AppiumProviderOptions } from './appium-transport.js';
export type { Isolation } from './appium-spaces.js';
