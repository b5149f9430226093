import { runTest, TestContext } from '../../framework/core/running-test.js';
import { TEST_NETWORK, type TestNetwork } from '../../framework/network/test-network.js';
import { Trajectory } from '../../framework/trajectory.js';

/** Run `body` as a test whose network is `net`, with no fixtures (tests of the network alone). */
export function withTestNetwork<T>(net: TestNetwork, body: () => Promise<T>): Promise<T> {
  const ctx = new TestContext(new Trajectory(), { actionTimeout: 5_000, expectTimeout: 5_000 });
  ctx.set(TEST_NETWORK, net);
  return runTest(ctx, body);
}
