import { z } from 'zod';
import { defineTool } from '../tool.js';
import { BoundsSchema, InstanceIdSchema, PackageNameSchema, SpaceIdSchema } from '../common.js';

/**
 * The `webview` extension: the WebViews of one app instance and where each serves the DevTools
 * protocol (CDP), so a client can drive the page inside with a browser automation library
 * (Playwright's `chromium.connectOverCDP`). On Android a WebView with debugging on
 * (`WebView.setWebContentsDebuggingEnabled`, which a container that controls the app's process
 * can turn on) serves CDP on the abstract socket `webview_devtools_remote_<pid>` of its process;
 * the runtime names that socket, and a client that can reach the device (adb) forwards it. A
 * runtime that serves CDP itself (the simulator's Chromium) gives an endpoint the client reaches
 * directly. Each page is the instance's: it ends with its activity or the instance.
 */

/** Where a WebView's page answers the DevTools protocol. */
export const WebViewDevToolsSchema = z.object({
  endpoint: z
    .string()
    .nullable()
    .describe(
      'A CDP endpoint the client can reach (ws://…/devtools/browser/… or http://host:port); null when only `socket` is known',
    ),
  socket: z
    .string()
    .nullable()
    .describe(
      'The abstract socket on the device that serves CDP (webview_devtools_remote_<pid>), for a client that forwards it (adb forward tcp:0 localabstract:<socket>)',
    ),
  target_id: z.string().nullable().describe("The page's CDP target id among the endpoint's targets"),
});
export type WebViewDevTools = z.infer<typeof WebViewDevToolsSchema>;

/** One WebView of an instance. */
export const WebViewInfoSchema = z.object({
  id: z.string().describe('Names this WebView while it lives (the same across calls)'),
  url: z.string().describe('The URL of the page it shows ("" before the first load)'),
  title: z.string().describe("The page's title"),
  bounds: BoundsSchema.describe('Where it is on screen, px (its last place when not on screen)'),
  on_screen: z.boolean().describe("Part of the screen now: the instance's activity that holds it is in front"),
  devtools: WebViewDevToolsSchema.nullable().describe('null: the page cannot be driven; `unavailable` says why'),
  unavailable: z
    .string()
    .nullable()
    .describe('Why devtools is null, and what to do (debugging off, no browser engine installed…)'),
});
export type WebViewInfo = z.infer<typeof WebViewInfoSchema>;

export const webview_list = defineTool({
  name: 'webview_list',
  title: 'List WebViews of {package}',
  description:
    "The WebViews of an app instance (id, URL, title, bounds on screen) and where each serves the DevTools protocol; those of the activity in front first. A WebView's page is the instance's and ends with it.",
  extension: true,
  group: 'webview',
  input: z.object({
    space_id: SpaceIdSchema,
    package: PackageNameSchema,
    instance: InstanceIdSchema.optional().describe('The instance (from space_launch); default "0"'),
  }),
  result: z.object({ webviews: z.array(WebViewInfoSchema) }),
});

export const webviewTools = [webview_list] as const;
