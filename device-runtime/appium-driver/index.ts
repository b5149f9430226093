/**
 * appium-nestspace-driver, the package's entry point (`main`: its build, dist/appium-driver/index.js).
 * Installed with `appium driver install --source=local <this folder>` once built, or from its
 * `npm pack` tarball (docs/appium.md); Appium imports it and instantiates {@link NestSpaceDriver}
 * per session.
 */
export { NestSpaceDriver } from './driver.js';
export { NestSpaceCapsSchema, type NestSpaceCaps } from './capabilities.js';
