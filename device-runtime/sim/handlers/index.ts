import type { Handlers } from './types.js';
import { spaceHandlers } from './space.js';
import { uiHandlers } from './ui.js';
import { sessionHandlers } from './session.js';
import { systemHandlers } from './system.js';
import { otherHandlers } from './other.js';

export const handlers: Handlers = { ...spaceHandlers, ...uiHandlers, ...sessionHandlers, ...systemHandlers, ...otherHandlers };
