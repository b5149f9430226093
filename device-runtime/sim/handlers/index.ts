import type { ToolName } from '../../protocol/index.js';
import { agentHandlers, type AgentHost } from './agent.js';
import { appfnHandlers, type AppfnHost } from './appfn.js';
import { auditHandlers, type AuditHost } from './audit.js';
import { runtimeHandlers, type RuntimeInfoHost } from './runtime.js';
import { sessionHandlers, type SessionHost } from './session.js';
import { spaceHandlers, type SpaceHost } from './space.js';
import { systemHandlers, type SystemHost } from './system.js';
import type { Handler } from './types.js';
import { uiHandlers, type UiHost } from './ui.js';
import { worldHandlers, type WorldHost } from './world.js';
import { webviewHandlers, type WebViewHost } from './webview.js';
import { networkHandlers, type NetworkHost } from './network.js';
import { screenRecordHandlers, type ScreenRecordHost } from './screen-record.js';

/** Everything the handlers need of the runtime, together: SimRuntime is checked against it. */
export type DeviceHost = AgentHost &
  AppfnHost &
  AuditHost &
  RuntimeInfoHost &
  SessionHost &
  SpaceHost &
  SystemHost &
  UiHost &
  WorldHost &
  WebViewHost &
  NetworkHost &
  ScreenRecordHost;

/** A handler for every tool: the type makes a missing handler a compile error (contract drift). */
export type Handlers = { [N in ToolName]: Handler<N, DeviceHost> };

/** One group per protocol tool file (`protocol/tools/<group>.ts`). */
export const handlers: Handlers = {
  ...agentHandlers,
  ...appfnHandlers,
  ...auditHandlers,
  ...runtimeHandlers,
  ...sessionHandlers,
  ...spaceHandlers,
  ...systemHandlers,
  ...uiHandlers,
  ...worldHandlers,
  ...webviewHandlers,
  ...networkHandlers,
  ...screenRecordHandlers,
};
