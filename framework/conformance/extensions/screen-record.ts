import { describeIssues, TOOLS } from '../../../device-runtime/protocol/index.js';
import { expectThat, type Check } from '../check.js';
import { findNode, NOTES } from '../fixtures.js';
import { describeAnswer } from '../session.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Extension `screen_record`: a recording of Notes while it opens a new note answers frames (PNGs
 * of the size start announced, in time order, read to the end) or a whole video; a recording
 * stopped with `discard` is gone. Not advertised: NOT_SUPPORTED (or UNKNOWN_TOOL), so a client
 * with `use.video` fails naming the extension.
 */
export const screenRecordCheck: Check = {
  id: 'extensions.screen_record',
  group: 'extensions',
  title: "screen_record: an instance's screen is recorded as frames (or a video), read once, dropped on discard",
  section: 'extension screen_record (not in the design): docs/protocol.md#screen_record_start',
  expects:
    'advertised: screen_record_start {package: notes, size 400×400} answers a recording no larger than the box; after a tap, screen_record_stop answers ≥ 1 frame (or `video`), screen_record_frames pages PNGs of that size in time order to next: null; a second recording stopped with discard answers 0 frames and is gone; not advertised: NOT_SUPPORTED',
  fix: "Record the instance's own display, keep a frame when the picture changes, answer the frames (or the whole video) once stopped, drop them on discard, or leave screen_record out of runtime_info.extensions and answer NOT_SUPPORTED.",
  required: true,
  async run(ctx) {
    const space_id = await ctx.space();
    const advertised = ((ctx.info?.extensions as string[] | undefined) ?? []).includes('screen_record');
    await ctx.main.ok('space_stop', { space_id, package: NOTES });
    await ctx.main.ok('space_launch', { space_id, package: NOTES });
    const start = await ctx.main.call('screen_record_start', {
      space_id,
      package: NOTES,
      size: { width: 400, height: 400 },
    });
    if (!advertised) {
      expectThat(
        !start.ok && (start.error.code === 'NOT_SUPPORTED' || start.error.code === 'UNKNOWN_TOOL'),
        `screen_record is not advertised, yet screen_record_start answered ${describeAnswer(start)}`,
      );
      return { status: 'pass', sent: [], received: describeAnswer(start) };
    }
    expectThat(start.ok, `advertised, yet screen_record_start answered ${describeAnswer(start)}`);
    const s = TOOLS.screen_record_start.result.safeParse(start.body);
    expectThat(s.success, s.success ? '' : describeIssues(s.error, 'result'));
    const { recording_id, width, height } = s.data;
    expectThat(width <= 400 && height <= 400, `a recording asked to fit 400×400 is ${width}×${height}`);
    const { node, snapshot_id } = await findNode(ctx.main, space_id, 'new_note');
    await ctx.main.ok('ui_tap', { space_id, node_id: node.id, snapshot_id });
    await ctx.main.ok('ui_wait_for', { space_id, idle: true, timeout_ms: 5000 });
    const stop = TOOLS.screen_record_stop.result.safeParse(await ctx.main.ok('screen_record_stop', { recording_id }));
    expectThat(stop.success, stop.success ? '' : describeIssues(stop.error, 'screen_record_stop result'));
    let received: string;
    if (stop.data.video) {
      expectThat(stop.data.video.data.length > 0, 'screen_record_stop answered an empty video');
      received = `a ${stop.data.video.mime} video of ${stop.data.duration_ms} ms`;
    } else {
      expectThat(stop.data.frames >= 1, `screen_record_stop answered ${stop.data.frames} frames after a tap`);
      let from: number | null = 0;
      let last = -1;
      let count = 0;
      while (from !== null) {
        const page = TOOLS.screen_record_frames.result.safeParse(
          await ctx.main.ok('screen_record_frames', { recording_id, from }),
        );
        expectThat(page.success, page.success ? '' : describeIssues(page.error, 'screen_record_frames result'));
        for (const f of page.data.frames) {
          const png = Buffer.from(f.png, 'base64');
          expectThat(png.subarray(0, 8).equals(PNG), `frame ${count} is not a PNG`);
          const size = [png.readUInt32BE(16), png.readUInt32BE(20)];
          expectThat(
            size[0] === width && size[1] === height,
            `frame ${count} is ${size.join('×')}, not the ${width}×${height} start announced`,
          );
          expectThat(f.at_ms >= last, `frame ${count} at ${f.at_ms} ms comes before the one before it (${last} ms)`);
          last = f.at_ms;
          count++;
        }
        expectThat(
          page.data.next === null || page.data.next > from,
          `screen_record_frames did not move on from ${from}`,
        );
        from = page.data.next;
      }
      expectThat(count === stop.data.frames, `${count} frames read, ${stop.data.frames} announced`);
      received = `${count} frame(s) of ${width}×${height} over ${stop.data.duration_ms} ms`;
    }
    const second = await ctx.main.ok('screen_record_start', { space_id, package: NOTES });
    const dropped = await ctx.main.ok('screen_record_stop', { recording_id: second.recording_id, discard: true });
    expectThat(
      dropped.frames === 0 && !dropped.video,
      `a discarded recording answered ${JSON.stringify(dropped).slice(0, 200)}`,
    );
    const after = await ctx.main.call('screen_record_frames', { recording_id: second.recording_id });
    expectThat(
      !after.ok || (after.body as { frames?: unknown[] }).frames?.length === 0,
      `a discarded recording still answers frames: ${describeAnswer(after)}`,
    );
    await ctx.main.call('space_stop', { space_id, package: NOTES });
    return { status: 'pass', sent: [], received };
  },
};
