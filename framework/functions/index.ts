/**
 * App functions (docs/functions.md): the functions an app declares for agents (Android's
 * AppFunctions), called through the device protocol's `appfn_*` tools. App attaches it
 * (`app.functions`); skills and AI steps reach it through the app port.
 */
export { AppFunctions, type AppFunctionInfo } from './app-functions.js';
