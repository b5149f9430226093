/**
 * The flow runner's JavaScript sandbox is the skills' one (device-runtime/protocol/skill/script.ts):
 * a flow and the skill imported from it evaluate `${…}`, `evalScript` and `assertTrue` alike.
 */
export {
  FlowScript,
  ScriptError,
  closing,
  truthy,
  checkSyntax,
  type ScriptErrorCode,
} from '../../device-runtime/protocol/skill/script.js';
