import { readSelector, SelectorError } from './selector.js';

/**
 * Maestro's commands, from its commands reference, each with the static check the planner runs
 * before anything touches the device. `device` marks the commands this runtime cannot honour:
 * the planner accepts them (they are valid Maestro), and a run fails on them with the flow's
 * file and line rather than passing over them.
 */
export const COMMAND_NAMES = [
  'launchApp',
  'stopApp',
  'killApp',
  'clearState',
  'clearKeychain',
  'tapOn',
  'doubleTapOn',
  'longPressOn',
  'inputText',
  'inputRandomText',
  'inputRandomNumber',
  'inputRandomEmail',
  'inputRandomPersonName',
  'eraseText',
  'pasteText',
  'copyTextFrom',
  'setClipboard',
  'assertVisible',
  'assertNotVisible',
  'assertTrue',
  'extendedWaitUntil',
  'waitForAnimationToEnd',
  'scroll',
  'scrollUntilVisible',
  'swipe',
  'back',
  'hideKeyboard',
  'pressKey',
  'runFlow',
  'runScript',
  'evalScript',
  'repeat',
  'retry',
  'takeScreenshot',
  'openLink',
  'setLocation',
  'travel',
  'startRecording',
  'stopRecording',
  'addMedia',
  'setOrientation',
  'setAirplaneMode',
  'toggleAirplaneMode',
  'setPermissions',
  'assertWithAI',
  'assertNoDefectsWithAI',
  'extractTextWithAI',
  'assertScreenshot',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Commands no NestSpace instance can honour, and why (a run fails on them with file and line). */
export const NOT_HONOURED: Partial<Record<CommandName, string>> = {
  startRecording:
    'screen recording is not part of the device protocol; use the trajectory screenshots (`use.screenshot`)',
  stopRecording:
    'screen recording is not part of the device protocol; use the trajectory screenshots (`use.screenshot`)',
  addMedia: 'the device protocol has no media store to add files to',
  setOrientation: 'a virtual space has a fixed display orientation',
  setAirplaneMode: 'airplane mode is device-wide; set the instance offline with the network options instead',
  toggleAirplaneMode: 'airplane mode is device-wide; set the instance offline with the network options instead',
  assertScreenshot: 'compare screens with `expect(app).toHaveScreenshot()` in a spec',
};

/** What Maestro's assertNoDefectsWithAI asks the model to look for. */
export const NO_DEFECTS =
  'The screen shows no visual defects: no text or element is cut off, overlapping another, or clearly misaligned within its container, and no error placeholder is shown';

/** The names `inputRandomPersonName` types (a run picks one; an imported skill's expression does too). */
export const RANDOM_NAMES = ['Ana Lima', 'John Smith', 'Mei Chen', 'Omar Haddad', 'Sofia Rossi', 'Kofi Mensah'];

/** `pressKey: Enter` or, as Maestro's YamlPressKey also reads it, `pressKey: { key: Enter }`: the key's name, lower case. */
export function keyName(arg: unknown): string {
  const key = arg && typeof arg === 'object' && !Array.isArray(arg) ? (arg as Json).key : arg;
  return String(key).trim().toLowerCase();
}

export const KEYS: Record<string, 'back' | 'home' | 'recents' | 'enter' | 'delete' | 'tab' | 'search' | 'menu'> = {
  enter: 'enter',
  home: 'home',
  back: 'back',
  backspace: 'delete',
  delete: 'delete',
  tab: 'tab',
  search: 'search',
  menu: 'menu',
  'app switch': 'recents',
  recents: 'recents',
};
/** Keys Maestro names that have no key event on a virtual space. */
const DEVICE_KEYS = [
  'volume up',
  'volume down',
  'power',
  'lock',
  'remote dpad up',
  'remote dpad down',
  'remote dpad left',
  'remote dpad right',
  'remote dpad center',
  'remote media play pause',
  'remote media stop',
  'remote media next',
  'remote media previous',
  'remote media rewind',
  'remote media fast forward',
  'escape',
];

export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

type Json = Record<string, unknown>;
const isMapArg = (a: unknown): a is Json => !!a && typeof a === 'object' && !Array.isArray(a);
const dynamic = (v: unknown) => typeof v === 'string' && v.includes('${');
const number = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && (/^\d+$/.test(v) || dynamic(v)));

function selectorProblem(arg: unknown, what: string): string | null {
  try {
    const sel = readSelector(arg, what);
    if (
      isMapArg(arg) &&
      Object.keys(sel).length === 0 &&
      !Object.keys(arg).some((k) => ['width', 'height', 'css', 'traits'].includes(k))
    )
      return `${what}: the selector names nothing (text, id, point or a relative selector)`;
    return null;
  } catch (e) {
    if (e instanceof SelectorError) return e.message;
    throw e;
  }
}

function conditionProblem(cond: unknown, what: string): string | null {
  if (!isMapArg(cond)) return `${what} is a map: { visible: …, notVisible: …, true: …, platform: … }`;
  for (const [k, v] of Object.entries(cond)) {
    if (k === 'visible' || k === 'notVisible') {
      const p = selectorProblem(v, `${what}.${k}`);
      if (p) return p;
    } else if (k === 'true') continue;
    else if (k === 'platform') {
      if (!/^(android|ios|web)$/i.test(String(v))) return `${what}.platform is Android, iOS or Web`;
    } else return `${what}: unknown condition \`${k}\` (visible, notVisible, true, platform)`;
  }
  return null;
}

/**
 * What is wrong with a command's argument, or null. Sub-flows, scripts and nested command lists
 * are the planner's (it reads their files); this checks the command's own shape.
 */
export function checkCommand(name: CommandName, arg: unknown): string | null {
  const a = isMapArg(arg) ? arg : {};
  switch (name) {
    case 'launchApp':
      if (arg !== null && typeof arg !== 'string' && !isMapArg(arg))
        return 'launchApp takes nothing, an appId or a map';
      return null;
    case 'stopApp':
    case 'killApp':
    case 'clearState':
      return arg === null || typeof arg === 'string' || isMapArg(arg) ? null : `${name} takes nothing or an appId`;
    case 'clearKeychain':
    case 'pasteText':
    case 'back':
    case 'hideKeyboard':
    case 'scroll':
    case 'stopRecording':
    case 'toggleAirplaneMode':
    case 'assertNoDefectsWithAI':
      return null;
    case 'tapOn':
    case 'doubleTapOn':
    case 'longPressOn':
      if (isMapArg(arg) && arg.point !== undefined && Object.keys(readSafe(arg)).length === 1)
        return pointProblem(String(arg.point), name);
      return selectorProblem(arg, name);
    case 'assertVisible':
    case 'assertNotVisible':
    case 'copyTextFrom':
      return selectorProblem(arg, name);
    case 'inputText':
    case 'setClipboard':
      return typeof arg === 'string' || typeof arg === 'number' || (isMapArg(arg) && arg.text !== undefined)
        ? null
        : `${name} takes the text`;
    case 'inputRandomText':
    case 'inputRandomNumber':
    case 'inputRandomEmail':
    case 'inputRandomPersonName':
      return arg === null || isMapArg(arg) ? null : `${name} takes nothing or { length: N }`;
    case 'eraseText':
      if (
        arg === null ||
        number(arg) ||
        (isMapArg(arg) && (a.charactersToErase === undefined || number(a.charactersToErase)))
      )
        return null;
      return 'eraseText takes a number of characters (or { charactersToErase: N })';
    case 'assertTrue':
      return typeof arg === 'string' || typeof arg === 'boolean' || (isMapArg(arg) && a.condition !== undefined)
        ? null
        : 'assertTrue takes a condition (`${output.count > 0}`)';
    case 'extendedWaitUntil': {
      if (!isMapArg(arg)) return 'extendedWaitUntil takes { visible | notVisible: selector, timeout: ms }';
      if (a.visible === undefined && a.notVisible === undefined) return 'extendedWaitUntil needs visible or notVisible';
      if (a.timeout !== undefined && !number(a.timeout)) return 'extendedWaitUntil timeout is in milliseconds';
      return selectorProblem(
        a.visible ?? a.notVisible,
        `extendedWaitUntil.${a.visible !== undefined ? 'visible' : 'notVisible'}`,
      );
    }
    case 'waitForAnimationToEnd':
      return arg === null || (isMapArg(arg) && (a.timeout === undefined || number(a.timeout)))
        ? null
        : 'waitForAnimationToEnd takes { timeout: ms }';
    case 'scrollUntilVisible': {
      if (!isMapArg(arg) || a.element === undefined)
        return 'scrollUntilVisible takes { element: selector, direction, timeout }';
      if (a.direction !== undefined && !/^(up|down|left|right)$/i.test(String(a.direction)) && !dynamic(a.direction))
        return 'scrollUntilVisible direction is UP, DOWN, LEFT or RIGHT';
      return selectorProblem(a.element, 'scrollUntilVisible.element');
    }
    case 'swipe': {
      if (!isMapArg(arg)) return 'swipe takes { direction } or { start, end } or { from, direction }';
      if (a.direction !== undefined && !/^(up|down|left|right)$/i.test(String(a.direction)) && !dynamic(a.direction))
        return 'swipe direction is UP, DOWN, LEFT or RIGHT';
      if (a.direction === undefined && (a.start === undefined || a.end === undefined))
        return 'swipe needs a direction, or start and end points';
      if (a.start !== undefined && pointProblem(String(a.start), 'swipe.start'))
        return pointProblem(String(a.start), 'swipe.start');
      if (a.end !== undefined && pointProblem(String(a.end), 'swipe.end'))
        return pointProblem(String(a.end), 'swipe.end');
      return a.from !== undefined ? selectorProblem(a.from, 'swipe.from') : null;
    }
    case 'pressKey': {
      const key = keyName(arg);
      if (KEYS[key] || DEVICE_KEYS.includes(key)) return null;
      return `key ${JSON.stringify(arg)}: Maestro's keys are ${[...Object.keys(KEYS), ...DEVICE_KEYS].join(', ')}`;
    }
    case 'runFlow':
      if (typeof arg === 'string') return null;
      if (!isMapArg(arg)) return 'runFlow names a file (`runFlow: login.yaml`) or takes { file | commands, env, when }';
      if (a.file === undefined && a.commands === undefined) return 'runFlow needs a file or commands';
      if (a.env !== undefined && !isMapArg(a.env)) return 'runFlow env is a map of NAME: value';
      return a.when !== undefined ? conditionProblem(a.when, 'runFlow.when') : null;
    case 'runScript':
      if (typeof arg === 'string') return null;
      if (!isMapArg(arg) || typeof a.file !== 'string') return 'runScript names a script file (`runScript: setup.js`)';
      if (a.env !== undefined && !isMapArg(a.env)) return 'runScript env is a map of NAME: value';
      return a.when !== undefined ? conditionProblem(a.when, 'runScript.when') : null;
    case 'evalScript':
      return typeof arg === 'string' ? null : 'evalScript takes JavaScript (`${output.n = 1}`)';
    case 'repeat':
      if (!isMapArg(arg) || !Array.isArray(a.commands)) return 'repeat takes { times | while, commands }';
      if (a.times !== undefined && !number(a.times)) return 'repeat times is a number';
      return a.while !== undefined ? conditionProblem(a.while, 'repeat.while') : null;
    case 'retry':
      if (!isMapArg(arg) || (a.commands === undefined && a.file === undefined))
        return 'retry takes { maxRetries, commands | file }';
      if (a.maxRetries !== undefined && !number(a.maxRetries)) return 'retry maxRetries is a number';
      return null;
    case 'takeScreenshot':
    case 'startRecording':
      return typeof arg === 'string' || (isMapArg(arg) && typeof a.path === 'string')
        ? null
        : `${name} takes a file name`;
    case 'openLink':
      return typeof arg === 'string' || (isMapArg(arg) && typeof a.link === 'string') ? null : 'openLink takes a link';
    case 'setLocation':
      return isMapArg(arg) && a.latitude !== undefined && a.longitude !== undefined
        ? null
        : 'setLocation takes { latitude, longitude }';
    case 'travel':
      return isMapArg(arg) && Array.isArray(a.points) ? null : 'travel takes { points: ["lat, lng", …], speed }';
    case 'setPermissions':
      return isMapArg(arg) ? null : 'setPermissions takes { permissions: { name: allow | deny } }';
    case 'addMedia':
    case 'setOrientation':
    case 'setAirplaneMode':
    case 'assertWithAI':
    case 'extractTextWithAI':
    case 'assertScreenshot':
      return null;
    default: {
      const never: never = name;
      return `unknown command ${String(never)}`;
    }
  }
}

function readSafe(arg: Json): Json {
  return Object.fromEntries(
    Object.entries(arg).filter(
      ([k]) => !['optional', 'label', 'repeat', 'delay', 'retryTapIfNoChange', 'waitToSettleTimeoutMs'].includes(k),
    ),
  );
}

function pointProblem(point: string, what: string): string | null {
  return /^\s*-?\d+(\.\d+)?%?\s*,\s*-?\d+(\.\d+)?%?\s*$/.test(point) || dynamic(point)
    ? null
    : `${what}: a point is "x, y" in pixels or "x%, y%"`;
}
