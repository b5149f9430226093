import type { InstancePort } from '../core/port.js';

/**
 * The clipboard the app sees (`app.clipboard`): the space's, through the protocol's
 * `sys_clipboard_get` / `sys_clipboard_set` (a test run pre-approves them). Unlike the rest of the
 * world it is the space's, shared by the instances in it, as one phone's clipboard is.
 */
export class AppClipboard {
  /** @internal Made by `app.clipboard`. */
  constructor(private readonly driver: InstancePort) {}

  /**
   * The clipboard's text, or null when it is empty.
   *
   * @example
   * ```ts
   * await app.getByText('Buy milk').longPress();
   * await app.getByText('Copy text').tap();
   * expect(await app.clipboard.read()).toContain('Buy milk');
   * ```
   */
  read(): Promise<string | null> {
    const d = this.driver;
    return d.wrap('app.clipboard.read', {}, (call) =>
      d.step(
        call,
        { kind: 'app', title: 'Read the clipboard', selector: null },
        async () => (await d.call(call, 'sys_clipboard_get', { space_id: d.spaceId })).text,
      ),
    );
  }

  /**
   * Put `text` on the clipboard, for the app to paste.
   *
   * @example
   * ```ts
   * await app.clipboard.write('SAVE10');
   * ```
   */
  async write(text: string): Promise<void> {
    const d = this.driver;
    const title = `Write ${JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text)} to the clipboard`;
    await d.wrap('app.clipboard.write', {}, (call) =>
      d.step(call, { kind: 'app', title, selector: null }, async () => {
        await d.call(call, 'sys_clipboard_set', { space_id: d.spaceId, text });
      }),
    );
  }
}
