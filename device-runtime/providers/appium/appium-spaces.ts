import path from 'node:path';
import { toolError } from '../../protocol/index.js';
import { ProviderError } from './provider-error.js';
import { WebDriverSession } from './webdriver.js';

/**
 * How the appium provider maps spaces and instances onto WebDriver sessions.
 *
 * - `instance` (a NestSpace driver behind the server): every instance is a session of its own,
 *   and the driver gives each one a fresh app instance with its own data in its own space —
 *   the isolation of the native provider, on any machine the server runs on.
 * - `reset` (any other Appium driver, e.g. UiAutomator2 on a farm): one session per space; a new
 *   instance is the same app with its data cleared (`mobile: clearApp`) and relaunched. One
 *   device holds one copy of an app, so tests on it run one at a time: weaker isolation.
 */
export type Isolation = 'instance' | 'reset';

export interface Instance {
  id: string;
  pkg: string;
  session: WebDriverSession;
}

export interface AppiumSpace {
  id: string;
  name: string;
  createdAt: number;
  /** APK path of each package installed, given to the server as `appium:app`. */
  apks: Map<string, string>;
  instances: Map<string, Instance>;
  /** The instance actions and observations go to (the one "in front"). */
  current: string | null;
  /** reset isolation: the space's one session. */
  shared: WebDriverSession | null;
  /**
   * instance isolation: the NestSpace space the first session got. Later instances join it
   * (`nestspace:space`), so instances of one test share a space as they do natively (a chat
   * server of the space sees both users); the driver deletes it when the last session ends.
   */
  nestspace: string | null;
}

let counter = 0;

export function newSpace(name: string | undefined): AppiumSpace {
  const id = `appium_${++counter}_${Date.now().toString(36)}`;
  return {
    id,
    name: name ?? id,
    createdAt: Date.now(),
    apks: new Map(),
    instances: new Map(),
    current: null,
    shared: null,
    nestspace: null,
  };
}

/** Capabilities of a new session for `pkg`: the user's, plus the app and the isolation's own. */
export function sessionCaps(
  user: Record<string, unknown>,
  space: AppiumSpace,
  pkg: string,
  isolation: Isolation,
): Record<string, unknown> {
  const caps: Record<string, unknown> = { platformName: 'Android', 'appium:newCommandTimeout': 600, ...user };
  const apk = space.apks.get(pkg);
  // A user's own appium:app (a URL a farm downloads) wins; otherwise the APK installed, or the package.
  if (!user['appium:app']) {
    if (apk) caps['appium:app'] = path.resolve(apk);
    else caps['appium:appPackage'] = pkg;
  }
  if (isolation === 'instance') {
    caps['nestspace:instance'] = 'new';
    if (space.nestspace) caps['nestspace:space'] = space.nestspace;
  } else caps['appium:noReset'] ??= true; // data is cleared per instance with mobile: clearApp instead
  return caps;
}

/** The instance an action acts on. */
export function currentInstance(space: AppiumSpace, tool: string): Instance {
  const inst = space.current ? space.instances.get(space.current) : undefined;
  if (!inst) {
    throw new ProviderError(
      toolError('INSTANCE_NOT_FOUND', `${tool}: no app is running in space ${space.id}`, {
        hint: 'Launch an app first (space_launch); with the appium provider each instance is a WebDriver session.',
      }),
    );
  }
  return inst;
}
