/**
 * appium-nestspace-driver: `appium driver install --source=local device-runtime/appium-driver`.
 * Appium imports this module and instantiates {@link NestSpaceDriver} per session.
 */
export { NestSpaceDriver } from './driver.js';
export { NestSpaceCapsSchema, type NestSpaceCaps } from './capabilities.js';
