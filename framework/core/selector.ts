import { parseSelector as parse, SelectorSyntaxError, type Step } from '../../device-runtime/protocol/selector.js';
import { NestwrightError } from './errors.js';

/** The selector engine lives in the protocol (both sides resolve selectors with it). */
export {
  formatSteps,
  fullText,
  matchText,
  resolveSteps,
  ROLES,
  type Role,
  type Step,
  type TextMatch,
} from '../../device-runtime/protocol/selector.js';

/** `parseSelector` with the calling API's name on its errors (`app.locator: unknown selector engine …`). */
export function parseSelector(selector: string, api = 'app.locator'): Step[] {
  try {
    return parse(selector);
  } catch (e) {
    if (e instanceof SelectorSyntaxError) throw new NestwrightError(api, e.message, { code: 'USAGE' });
    throw e;
  }
}
