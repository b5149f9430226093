import type { IncomingMessage } from 'node:http';

/** What the backend's routes (shop-api.ts, chat-api.ts) see and answer. */
/** A request as a route sees it, and what it answers (`delayMs`: server time, before the fault profile's scale). */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingMessage['headers'];
}
export interface ApiResponse {
  status: number;
  json?: unknown;
  /** How long the server takes to answer on a mid-range network (scaled by the fault profile's loadScale). */
  delayMs?: number;
  /** Not scaled: the payment processor takes this long whatever the profile. */
  fixedDelayMs?: number;
  /** Work done once the delay is over (a message is stored when the server is done with it): its value is the body. */
  later?: () => unknown;
}
export type ApiRoute = (req: ApiRequest) => ApiResponse | null;
