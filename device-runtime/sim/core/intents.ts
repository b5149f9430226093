import { toolError } from '../../protocol/index.js';
import type { DeepLink } from '../apps/define-app.js';
import type { SimInstance } from './instance.js';
import { SimError } from './sim-error.js';
import type { SimSpace } from './space.js';

export interface DeepLinkMatch {
  package: string;
  activity: string;
  extras: Record<string, string>;
}

function match(link: DeepLink, uri: URL): Record<string, string> | null {
  if (uri.protocol !== `${link.scheme}:`) return null;
  // nwshop://product/42 → host "product", path "/42"
  const parts = [uri.hostname, ...uri.pathname.split('/')].filter(Boolean).map(decodeURIComponent);
  const want = link.pattern.split('/').filter(Boolean);
  if (parts.length !== want.length) return null;
  const extras: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) extras[want[i]!.slice(1)] = parts[i]!;
    else if (want[i] !== parts[i]) return null;
  }
  for (const [k, v] of uri.searchParams) extras[k] = v;
  return extras;
}

/** Which installed app handles `data` (a deep link URI), like PackageManager.resolveActivity. */
export function resolveDeepLink(space: SimSpace, data: string, pkg?: string): DeepLinkMatch | null {
  let uri: URL;
  try {
    uri = new URL(data);
  } catch {
    throw new SimError(
      toolError('INVALID_ARGUMENT', `app_intent: data ${JSON.stringify(data)} is not a URI`, {
        hint: 'Pass a URI such as nwshop://product/42.',
      }),
    );
  }
  for (const [name, app] of space.apps) {
    if (pkg && name !== pkg) continue;
    for (const link of app.model.deepLinks ?? []) {
      const extras = match(link, uri);
      if (extras) return { package: name, activity: link.activity, extras };
    }
  }
  return null;
}

/**
 * Open a deep link as ACTION_VIEW does: resolve the app, start (or reuse) its instance, push the
 * link's activity with the captured path segments as extras, and bring it to the front.
 * For the `app_intent` handler when `data` is given without a component; `assignSlot` gives the
 * instance a process slot (the runtime's pool, which knows which spaces are leased).
 */
export function openDeepLink(
  assignSlot: (inst: SimInstance, space: SimSpace) => { pid: number },
  space: SimSpace,
  args: {
    data: string;
    action: string;
    package?: string;
    instance?: string;
    extras?: Record<string, string | number | boolean>;
  },
): { package: string; activity: string; instance: string } {
  const hit = resolveDeepLink(space, args.data, args.package);
  if (!hit) {
    throw new SimError(
      toolError('INVALID_ARGUMENT', `app_intent: no installed app in space ${space.id} handles ${args.data}`, {
        hint: 'Install the app that declares this scheme, or pass package and component explicitly.',
      }),
    );
  }
  const inst = space.instanceFor(hit.package, args.instance);
  if (inst.status === 'crashed') inst.stop();
  const { pid } = assignSlot(inst, space);
  const extras = { ...(args.extras ?? {}), ...hit.extras, data: args.data, action: args.action };
  // A cold start by deep link has only the linked activity in its task: back leaves the app.
  if (inst.stack.length === 0) inst.start(hit.activity, pid, extras);
  else inst.push(hit.activity, extras);
  space.bringToFront(inst);
  return { package: hit.package, activity: hit.activity, instance: inst.id };
}
