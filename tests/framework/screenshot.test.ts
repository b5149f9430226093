import { test, expect } from '@playwright/test';
import { DeviceError } from '../../device-runtime/client/index.js';
import { toolError } from '../../device-runtime/protocol/index.js';
import { SimRuntime } from '../../device-runtime/sim/runtime.js';
import { ApiCall } from '../../framework/core/api-call.js';
import { screenshot } from '../../framework/core/app-actions.js';
import { AppDriver } from '../../framework/core/driver.js';
import { NestwrightError } from '../../framework/core/errors.js';
import { Trajectory } from '../../framework/core/trajectory.js';

/**
 * `app.screenshot()` as documented and typed (a Buffer, `Promise<Buffer>`): it throws on a runtime
 * without ui_screenshot; `{ optional: true }` returns null there instead. An in-process simulator
 * whose ui_screenshot answers NOT_SUPPORTED, as the published companion app's phones do.
 * The types are checked by tsc on screenshot.types.ts.
 */
async function driverWithoutScreenshots(): Promise<{ driver: AppDriver; close: () => void }> {
  const rt = new SimRuntime({});
  const call = async (name: string, args: object): Promise<any> => {
    if (name === 'ui_screenshot')
      throw new DeviceError(name, toolError('NOT_SUPPORTED', 'ui_screenshot is not offered by this runtime'));
    const r = await rt.call(name, args, { sessionId: 'shots', caller: 'REMOTE_MCP' });
    if (!r.ok) throw new DeviceError(name, r.error);
    return r.result;
  };
  const { space_id } = await call('space_create', {});
  await call('session_acquire', { space_id });
  await call('space_launch', { space_id, package: 'com.android.settings' });
  const driver = new AppDriver({ call } as never, space_id, 'com.android.settings', null, new Trajectory(), {
    actionTimeout: 2_000,
    expectTimeout: 2_000,
    screenshot: 'off',
  });
  return { driver, close: () => rt.close() };
}

test('app.screenshot() throws on a runtime without ui_screenshot; { optional: true } returns null', async () => {
  const { driver, close } = await driverWithoutScreenshots();
  try {
    const error = await screenshot(new ApiCall('app.screenshot', 2_000, undefined), driver, {}).catch((e) => e);
    expect(error).toBeInstanceOf(NestwrightError);
    expect((error as Error).message).toContain('app.screenshot: this device runtime does not offer ui_screenshot');
    expect(await screenshot(new ApiCall('app.screenshot', 2_000, undefined), driver, { optional: true })).toBeNull();
  } finally {
    close();
  }
});
