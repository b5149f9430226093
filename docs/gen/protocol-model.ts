/**
 * The runtime model section of docs/protocol.md: the rules of the NestSpace design that the
 * schemas alone do not say. Code comments point at these anchors (`docs/protocol.md#leases`).
 */
export const RUNTIME_MODEL = `## Runtime model

### <a id="instances"></a>Spaces and instances

A **space** is an app-level container: its own installed apps, its own virtual display (when
\`runtime_info.capabilities.virtual_displays\` is true; otherwise spaces take turns on the main one),
its own clipboard and logcat. An **instance** is one copy of an installed app in a space with its
own data root (files, databases, preferences): two instances of Chat are two users. Data stays
across stop and launch; \`space_stop\` with \`clear_data\` wipes it (extension). Anything an app
keeps outside its data root is shared by its instances in the space — a simulated app's backend
(Chat's server) lives per space.

### <a id="processes"></a>Processes and crashes

The runtime has a fixed pool of process slots (2–4 on a phone, \`process_slots\`), shared by all
spaces. A launch takes a slot (evicting the least recently used instance when all are taken;
\`NO_PROCESS_SLOT\` when none can be freed, retryable). An app that throws dies alone: its slot is
cleaned before reuse, its data stays, and calls on it answer \`APP_CRASHED\` with the reason; the
next \`space_launch\` restarts it and reports \`restarted_after_crash\`.

### <a id="install"></a>Installing

\`space_install_apk\` first runs the preflight (APK, splits and bundles read, signatures compared by
certificate, minimum target SDK, 16 KB page alignment of native libraries, secure-environment
requirements) and rejects with its code (\`INVALID_APK\`, \`SIGNATURE_MISMATCH\`, \`NOT_16KB_ALIGNED\`…)
and the report in \`details\`. ABIs are not checked at install but at launch (\`ABI_MISMATCH\`).
Installing the same version again is \`unchanged\`; a new version is an update that keeps the
instances and their data. \`idempotency_key\` makes a retried install or launch a no-op.

### <a id="permissions"></a>Permissions

Runtime permissions are granted per app per space: at the app's own prompt (the permission
controller's dialog covers the app until answered; after two denials it is no longer shown), at
install with \`grant_runtime_permissions\`, or with \`space_permissions\` (a dangerous operation,
so it needs approval; nestwright extension). Only permissions the manifest requests can be
granted. nestwright resets them before each test's instance starts (see [Fixtures and isolation](fixtures.md)).

### <a id="channels"></a>Control channels

A space is observed and driven through one channel: the accessibility service (node actions,
~50–150 ms a call), Shizuku (injected input, ~100–300 ms) or vision only (screenshots, no nodes:
actions answer \`CHANNEL_UNAVAILABLE\`). Android's Advanced Protection mode revokes accessibility,
so the runtime falls back to Shizuku. The observation's \`channel\` names the one in use.

### <a id="observation"></a>Observation

\`ui_observe\` returns the screen as a flat list of nodes (fields under [Observation fields](#observation-fields)): only
visible nodes that are clickable, editable, scrollable or carry text or a description (all nodes
with \`detail: 'full'\`), each with its parent's id and depth. Node ids are valid within one
snapshot only. While an activity transition runs the accessibility root can be null
(\`tree_missing\`): observe again. Nodes under the soft keyboard or behind a dialog are not on
screen; a window that does not resize pans so the focused field stays above the keyboard.

### <a id="actions"></a>Actions

An action names its target by \`node_id\` (preferred, with the \`snapshot_id\` it came from), bounds or
text. Node first, gesture as fallback: a clickable node gets ACTION_CLICK; anything else is a tap
at the node's centre, which lands on whatever is on top there (\`method\` in the result). A device
may acknowledge an action and drop it: callers verify the effect. Keys: \`back\` closes a dialog,
then the keyboard, then the activity; \`enter\` goes to the focused field.

### <a id="vision"></a>Vision

WebViews and canvases expose no nodes: their content exists only as pixels in \`ui_screenshot\`,
and only a tap at coordinates reaches it.

### <a id="tool-layer"></a>Tool layer

One registry of tools serves both the local agent and remote MCP clients, with the same leases,
approvals and audit. Every call is validated against the schemas both ways and recorded in the
audit log (arguments masked where sensitive: clipboard text).

### <a id="transport"></a>Transport

MCP Streamable HTTP at \`/mcp\`. A bearer token is compared in constant time before the body is
read; the server listens on loopback unless LAN is asked for explicitly (and then only with a
token). Host and Origin headers are checked against an allow-list. Each client gets a session id,
reclaimed after 30 minutes idle (its leases with it); an unknown session is a 404. Limits: request
body ≤ 40 MB, headers ≤ 64 KB, ≤ 32 requests in flight (429 beyond).

A runtime may answer a call as JSON or as an SSE stream. The simulator answers in one JSON body
when the answer is ready within a second, and streams when a call sends progress first or takes longer. nestwright's client reads either, keeps its connections alive between calls and
opens no standalone GET stream: the protocol sends nothing outside a call's answer. A call whose
answer stream ends or breaks before the answer fails at once with \`DEVICE_DISCONNECTED\`.

On a phone the runtime is the app \`com.coke.nestspace\`: its foreground service
\`McpForegroundService\` serves MCP on the device's 127.0.0.1:8765, with a random token made on
first launch. nestwright reaches it through \`adb forward\` to a free local port and reads the token
with \`adb shell run-as com.coke.nestspace cat files/mcp_token\` (debuggable builds), unless the
config gives one.

### <a id="leases"></a>Leases

A mutating tool needs an EXCLUSIVE lease on its space (\`session_acquire\`); one holder at a time,
any number of OBSERVE holders. Leases expire after \`ttl_ms\` idle and end with their session;
\`wait_ms\` queues for a busy space instead of failing with \`SPACE_BUSY\`. The person at the phone
can take a space over (\`session_release\` with \`force\`).

### <a id="approvals"></a>Approvals

Dangerous tools (install, uninstall, permissions, clipboard, shell, payments) need a human's
approval: \`approval_request\`, then \`approval_wait\`; the answer comes from the phone
(\`approval_decide\` relays it; extension). A policy can pre-approve tools (a test run is such a
context). The shell is off unless enabled, and then limited to an allow-list.

`;
