import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Observation, UiNode } from '../../device-runtime/protocol/index.js';
import { parseLocatorInput } from '../../framework/tools/expression.js';
import { Locator } from '../../framework/core/locator.js';
import { resolveSteps } from '../../framework/core/selector.js';
import { suggestLocators } from '../../device-runtime/protocol/best-selector.js';
import { allowedPath } from '../mcp/tools/files.js';
import { SessionManager, type LiveSession } from '../mcp/sessions.js';
import { Recording, type RecordedStep } from './recorder.js';

/** A failure the page can show: a code, and a message that says what to do. */
export class InspectorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type Action = 'tap' | 'long_press' | 'fill' | 'scroll_into_view' | 'press';

/**
 * The live half of the inspector: one app instance in a space of its own, the screen the page
 * was last shown (node ids refer to it), and the recording. Actions go through the framework's
 * locators, so what is recorded is what a spec would do, with the same auto-wait and strictness.
 */
export class LiveInspector {
  private sessions: SessionManager;
  private session: LiveSession | null = null;
  private shown: Observation | null = null;
  readonly recording: Recording;

  constructor(
    private readonly root: string,
    readonly app: string,
    private readonly device: unknown,
  ) {
    this.sessions = new SessionManager(root);
    this.recording = new Recording(app, app);
  }

  async connect(): Promise<void> {
    await this.sessions.shutdown().catch(() => {});
    this.sessions = new SessionManager(this.root);
    this.session = null;
    try {
      this.session = await this.sessions.open('inspector', this.app, this.device);
    } catch (e) {
      throw new InspectorError(
        'DEVICE_DISCONNECTED',
        `cannot open ${this.app}: ${(e as Error).message.split('\n')[0]}`,
        503,
      );
    }
    (this.recording as { pkg: string }).pkg = this.session.app.package;
  }

  private live(): LiveSession {
    if (!this.session)
      throw new InspectorError('DEVICE_DISCONNECTED', 'not connected to a device: press Reconnect', 503);
    return this.session;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      const code = (e as { code?: string }).code ?? (e as Error).name;
      if (code === 'DEVICE_DISCONNECTED' || (e as Error).name === 'DeviceDisconnectedError') {
        this.session = null;
        throw new InspectorError(
          'DEVICE_DISCONNECTED',
          `the device went away: ${(e as Error).message.split('\n')[0]}`,
          503,
        );
      }
      if (e instanceof InspectorError) throw e;
      throw new InspectorError(typeof code === 'string' ? code : 'ERROR', (e as Error).message, 422);
    }
  }

  /** The screen, or `unchanged` when its hash is `since`. The PNG only when the screen changed. */
  screen(since?: string): Promise<Record<string, unknown>> {
    return this.guard(async () => {
      const s = this.live();
      const obs = await s.app.observe();
      const hash = obs.screen_hash ?? obs.snapshot_id;
      if (since && since === hash && this.shown) return { unchanged: true, hash };
      this.shown = obs;
      const png = await s.app.screenshot({ optional: true });
      return {
        hash,
        snapshot_id: obs.snapshot_id,
        package: obs.package,
        activity: obs.activity,
        screen: obs.screen,
        nodes: obs.nodes,
        png: png ? `data:image/png;base64,${png.toString('base64')}` : null,
      };
    });
  }

  private node(id: string): UiNode {
    const n = this.shown?.nodes.find((x) => x.id === id);
    if (!n)
      throw new InspectorError('NODE_NOT_FOUND', `no node ${id} on the screen shown; the screen changed, pick again`);
    return n;
  }

  /** Ranked locators for a node of the screen shown, each checked for uniqueness on it. */
  locators(nodeId: string) {
    const node = this.node(nodeId);
    return { node, suggestions: suggestLocators(this.shown!, node.id) };
  }

  /** Matches of any selector or getBy… expression on the screen shown. */
  tryLocator(input: string) {
    let steps;
    try {
      steps = parseLocatorInput(input, 'inspector');
    } catch (e) {
      throw new InspectorError('INVALID_ARGUMENT', (e as Error).message);
    }
    const matches = this.shown ? resolveSteps(this.shown.nodes, steps) : [];
    return {
      verdict: matches.length === 1 ? 'unique' : matches.length ? 'ambiguous' : 'none',
      count: matches.length,
      node_ids: matches.map((n) => n.id),
    };
  }

  private best(nodeId: string): { selector: string; code: string } {
    const best = suggestLocators(this.shown!, this.node(nodeId).id).find((s) => s.strictSafe);
    if (!best)
      throw new InspectorError(
        'NO_UNIQUE_LOCATOR',
        'no locator names this node alone on this screen; type one in the locator box',
      );
    return { selector: best.selector, code: best.code };
  }

  /** Act on the device as a spec would, and append the step to the recording. */
  act(req: { action: Action; node_id?: string; selector?: string; value?: string }): Promise<{ step: RecordedStep }> {
    return this.guard(async () => {
      const s = this.live();
      if (req.action === 'press') {
        if (!req.value) throw new InspectorError('INVALID_ARGUMENT', 'press needs a key (back, enter, home…)');
        await s.app.press(req.value as never);
        const step: RecordedStep = { kind: 'press', key: req.value };
        this.recording.add(step);
        return { step };
      }
      const named = req.node_id
        ? this.best(req.node_id)
        : req.selector
          ? { selector: req.selector, code: `app.locator(${JSON.stringify(req.selector)})` }
          : null;
      if (!named) throw new InspectorError('INVALID_ARGUMENT', `${req.action} needs a node or a selector`);
      const locator = new Locator(s.app.driver, parseLocatorInput(named.selector, 'inspector'));
      let step: RecordedStep;
      switch (req.action) {
        case 'tap':
          await locator.tap();
          step = { kind: 'tap', ...named };
          break;
        case 'long_press':
          await locator.longPress();
          step = { kind: 'long_press', ...named };
          break;
        case 'scroll_into_view':
          await locator.scrollIntoView();
          step = { kind: 'scroll_into_view', ...named };
          break;
        case 'fill':
          if (req.value === undefined) throw new InspectorError('INVALID_ARGUMENT', 'fill needs the text to type');
          await locator.fill(req.value);
          step = { kind: 'fill', ...named, value: req.value };
          break;
        default:
          throw new InspectorError('INVALID_ARGUMENT', `unknown action ${String(req.action)}`);
      }
      this.recording.add(step);
      return { step };
    });
  }

  /** An assertion on a picked node, recorded only when it holds now. */
  assert(req: { node_id: string; kind: 'visible' | 'text' }): { step: RecordedStep } {
    const node = this.node(req.node_id);
    const named = this.best(req.node_id);
    let step: RecordedStep;
    if (req.kind === 'text') {
      if (!node.text) throw new InspectorError('INVALID_ARGUMENT', 'this node has no text to assert');
      step = { kind: 'assert_text', ...named, value: node.text };
    } else step = { kind: 'assert_visible', ...named };
    this.recording.add(step);
    return { step };
  }

  code(): { spec: string; skill: string; steps: number } {
    return { spec: this.recording.toSpec(), skill: this.recording.toSkill(), steps: this.recording.steps.length };
  }

  /** Write the recording under specs/ or skills/ (the same rules as `nestwright mcp`'s write_spec). */
  async save(req: { format: 'spec' | 'skill'; path: string }): Promise<{ path: string }> {
    let abs: string;
    try {
      abs = await allowedPath(this.root, req.path);
    } catch (e) {
      throw new InspectorError('PATH_NOT_ALLOWED', (e as Error).message);
    }
    await mkdir(path.dirname(abs), { recursive: true });
    const { spec, skill } = this.code();
    await writeFile(abs, req.format === 'skill' ? skill : spec);
    return { path: path.relative(this.root, abs) };
  }

  close(): Promise<void> {
    return this.sessions.shutdown();
  }
}
