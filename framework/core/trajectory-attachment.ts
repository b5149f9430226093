/**
 * The name of the attachment that holds a test's trajectory (JSON, every step), as reports and
 * `nestwright/reporters/allure` look it up.
 *
 * @example
 * ```ts
 * import { test, TRAJECTORY_ATTACHMENT } from 'nestwright';
 *
 * test.afterEach(async ({}, testInfo) => {
 *   const trajectory = testInfo.attachments.find((a) => a.name === TRAJECTORY_ATTACHMENT);
 *   console.log(trajectory?.path);
 * });
 * ```
 */
export const TRAJECTORY_ATTACHMENT = 'nestwright-trajectory';
