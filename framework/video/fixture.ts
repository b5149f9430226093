import type { Fixtures } from '@playwright/test';
import type { TestContext } from '../core/running-test.js';
import { videoFeature } from './feature.js';
import { videoSettings, type VideoOption } from './options.js';

/**
 * The video feature's registration: the `video` option (default 'off', as Playwright's) and an
 * automatic fixture that adds the feature to the test's lifecycle when this run records.
 * framework/fixtures.ts extends the test with these; nothing else there knows of video.
 */
export const videoFixtures: Fixtures<{ video: VideoOption; _video: void }, {}, { _testContext: TestContext }> = {
  video: ['off', { option: true, box: 'self' }],
  _video: [
    async ({ video, _testContext }, use, testInfo) => {
      const feature = videoFeature(videoSettings(video), testInfo.retry);
      if (feature) _testContext.lifecycle.add(feature);
      await use();
    },
    { auto: true, box: 'self' },
  ],
};
