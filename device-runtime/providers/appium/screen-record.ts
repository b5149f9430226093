import { toolError, type ToolArgs, type ToolResult } from '../../protocol/index.js';
import type { AppiumSpace, Instance } from './appium-spaces.js';
import { ProviderError } from './provider-error.js';
import { WebDriverError, type WebDriverSession } from './webdriver.js';

type RecordTools = 'screen_record_start' | 'screen_record_stop' | 'screen_record_frames';
type Handler<N extends RecordTools> = (args: ToolArgs<N>) => Promise<ToolResult<N>>;

interface Recording {
  session: WebDriverSession;
  startedAt: number;
  size: { width: number; height: number };
}

/** The W3C errors that say the driver has no screen recording. */
const UNSUPPORTED = new Set(['unknown method', 'unknown command', 'unsupported operation', 'not implemented']);

/**
 * The `screen_record` extension over Appium: the driver's own screen recording (UiAutomator2's
 * `mobile: startScreenRecording` / `mobile: stopScreenRecording`, Android's `screenrecord`),
 * which hands back an MP4 on stop; screen_record_stop answers it as `video` (no frames), and the
 * framework transcodes it to WebM. What is recorded is the display the session's app is on: with
 * instance isolation on a NestSpace driver, the instance's own; otherwise the device's main
 * display, where the one instance in front is. A driver without recording answers NOT_SUPPORTED
 * naming the extension. One recording per session at a time (Android's screenrecord).
 */
export function appiumScreenRecord(space: (id: string) => AppiumSpace): { [N in RecordTools]: Handler<N> } {
  const recordings = new Map<string, Recording>();
  let counter = 0;

  const unsupported = (tool: string, e: WebDriverError) =>
    new ProviderError(
      toolError(
        'NOT_SUPPORTED',
        `${tool}: this Appium driver cannot record the screen (${e.error}: ${e.message.split('\n')[0]}), so the screen_record extension is not available`,
        { hint: "Use a driver that implements mobile: startScreenRecording (UiAutomator2), or set use.video: 'off'." },
      ),
    );

  const find = (tool: string, id: string): Recording => {
    const r = recordings.get(id);
    if (!r)
      throw new ProviderError(
        toolError('INVALID_ARGUMENT', `${tool}: no recording ${JSON.stringify(id)}`, {
          hint: 'Use the recording_id screen_record_start answered.',
        }),
      );
    return r;
  };

  return {
    screen_record_start: async (a) => {
      const s = space(a.space_id);
      const inst: Instance | undefined = a.instance
        ? s.instances.get(a.instance)
        : [...s.instances.values()].find((i) => i.pkg === a.package);
      if (!inst || inst.pkg !== a.package)
        throw new ProviderError(
          toolError(
            'INSTANCE_NOT_FOUND',
            `screen_record_start: no instance ${a.instance ?? ''} of ${a.package}`.trim(),
          ),
        );
      for (const r of recordings.values())
        if (r.session === inst.session)
          throw new ProviderError(
            toolError('INVALID_ARGUMENT', `screen_record_start: ${a.package} is already being recorded`, {
              hint: 'One recording per Appium session at a time: stop the other first.',
            }),
          );
      const size = a.size ?? { width: 800, height: 800 };
      try {
        await inst.session.execute('mobile: startScreenRecording', { forceRestart: true, timeLimit: 1800 });
      } catch (e) {
        if (e instanceof WebDriverError && UNSUPPORTED.has(e.error)) throw unsupported('screen_record_start', e);
        throw e;
      }
      const id = `rec_${++counter}`;
      const startedAt = Date.now();
      recordings.set(id, { session: inst.session, startedAt, size });
      return { recording_id: id, width: size.width, height: size.height, started_at: startedAt };
    },

    screen_record_stop: async (a) => {
      const r = find('screen_record_stop', a.recording_id);
      recordings.delete(a.recording_id);
      const data = await r.session.execute<string>('mobile: stopScreenRecording', {});
      return {
        frames: 0,
        duration_ms: Date.now() - r.startedAt,
        width: r.size.width,
        height: r.size.height,
        truncated: false,
        video: a.discard || !data ? null : { mime: 'video/mp4' as const, data },
      };
    },

    // The video came whole with screen_record_stop: there are no frames to page through.
    screen_record_frames: async () => ({ frames: [], next: null }),
  };
}
