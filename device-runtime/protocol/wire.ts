import { z } from 'zod';
import type { ToolError } from './errors.js';
import type { ToolDef } from './tool.js';

/**
 * How a tool's outcome travels as an MCP `CallToolResult`, and how it is read back. The runtime
 * encodes with these and the client decodes with them, so the two ends cannot drift.
 *
 * - A result: `structuredContent` (which conforms to the tool's advertised `outputSchema`) and
 *   the same JSON as a text block, as MCP asks for older clients. A tool's `imageField` (the PNG
 *   of `ui_screenshot`) is taken out of both and sent as an `image` content block instead: MCP
 *   clients show images and pass them to models as pictures, whereas base64 inside JSON is
 *   hundreds of kilobytes of text a model reads as noise. The advertised `outputSchema` is the
 *   result schema without that field ({@link outputSchemaOf}), so the SDK's validation holds.
 * - An error: `isError: true` and the envelope as text JSON `{"error": {code, message,
 *   retryable, hint}}`, with NO `structuredContent`. MCP requires structuredContent to match
 *   `outputSchema`, and the SDK's client rejects a result whose structuredContent does not; making
 *   every `outputSchema` a union with the envelope instead would blur each tool's result type for
 *   every agent reading the tool list. Errors are therefore read from the text block.
 */

/** The shape of an MCP tool result, as far as the device protocol uses it. */
export interface WireResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: WireContent[];
}
/** One content block of an MCP tool result: text (the JSON), an image (screenshots), or another kind. */
export type WireContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: string; [k: string]: unknown };

/** The zod schema of what a tool's structuredContent holds on the wire. */
export function outputSchemaOf(tool: ToolDef): z.ZodObject {
  return tool.imageField ? tool.result.omit({ [tool.imageField]: true } as Record<string, true>) : tool.result;
}

/** A successful result as MCP content; `pngs` are extra base64 PNGs to show (ui_observe's screenshot). */
export function encodeResult(tool: ToolDef, result: Record<string, unknown>, pngs: string[] = []): WireResult {
  const content: WireContent[] = [];
  let structured = result;
  if (tool.imageField && typeof result[tool.imageField] === 'string') {
    const { [tool.imageField]: data, ...rest } = result;
    structured = rest;
    content.push({ type: 'image', data: data as string, mimeType: 'image/png' });
  }
  for (const data of pngs) content.push({ type: 'image', data, mimeType: 'image/png' });
  content.unshift({ type: 'text', text: JSON.stringify(structured) });
  return { content, structuredContent: structured };
}

/** An error envelope as MCP content: text only, so no structuredContent contradicts outputSchema. */
export function encodeError(error: ToolError): WireResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/**
 * The error envelope of an `isError` result, unvalidated: from the text block (this runtime and
 * any that follow wire.ts), or from `structuredContent.error` (runtimes that put it there).
 */
export function decodeErrorBody(raw: WireResult): unknown {
  return textJson(raw)?.error ?? (raw.structuredContent as { error?: unknown } | undefined)?.error;
}

/**
 * The result body of a successful call, unvalidated: structuredContent (or the text block's JSON
 * when a runtime sends none), with the tool's image field put back from the first image block.
 */
export function decodeResultBody(tool: ToolDef, raw: WireResult): unknown {
  const body = raw.structuredContent ?? textJson(raw);
  if (!tool.imageField || !body || typeof body !== 'object' || tool.imageField in body) return body;
  const image = raw.content?.find(
    (c): c is { type: 'image'; data: string; mimeType: string } => c.type === 'image' && typeof c.data === 'string',
  );
  return image ? { ...body, [tool.imageField]: image.data } : body;
}

function textJson(raw: WireResult): any {
  const text = raw.content?.find(
    (c): c is { type: 'text'; text: string } => c.type === 'text' && typeof c.text === 'string',
  )?.text;
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
