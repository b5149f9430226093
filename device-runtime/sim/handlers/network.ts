import type { SimInstance } from '../core/instance.js';
import type { SimNetwork } from '../net/sim-network.js';
import { toolError } from '../../protocol/index.js';
import { SimError } from '../core/sim-error.js';
import { BadCaPem, parseCaPem } from '../net/net-state.js';
import type { DeviceSpace, HandlerGroup, SpaceLookup } from './types.js';

type NetworkTools = 'net_proxy_set' | 'net_proxy_clear' | 'net_offline_set' | 'net_state_get' | 'net_info';

/** The network tools find an instance in a space; net_info asks the runtime's network (its backends). */
export type NetworkHost = SpaceLookup & { readonly env: { readonly net: SimNetwork } };

interface Ref {
  space_id: string;
  package: string;
  instance?: string | undefined;
}

/** The instance a network tool names: APP_NOT_INSTALLED, then INSTANCE_NOT_FOUND, with hints. */
function target(rt: NetworkHost, args: Ref): { space: DeviceSpace; inst: SimInstance } {
  const space = rt.space(args.space_id);
  space.app(args.package);
  return { space, inst: space.instance(args.package, args.instance ?? '0') };
}

/**
 * The `net_proxy` extension on the simulator: each instance's proxy, extra CA and offline flag
 * live on the instance (`inst.net`, reset with its data); its app's HTTP client (sim/net/) reads
 * them on every request. The screen is invalidated so an app that shows connectivity re-renders.
 */
export const networkHandlers: HandlerGroup<NetworkTools, NetworkHost> = {
  net_proxy_set: (args, rt) => {
    const { inst } = target(rt, args);
    let ca: string[];
    try {
      ca = parseCaPem(args.ca_pem);
    } catch (e) {
      if (!(e instanceof BadCaPem)) throw e;
      throw new SimError(
        toolError('INVALID_ARGUMENT', `net_proxy_set: ${e.message}`, {
          hint: 'Pass the proxy\'s CA certificate in PEM form, "-----BEGIN CERTIFICATE-----\\n…base64…\\n-----END CERTIFICATE-----" (e.g. mockttp\'s generateCACertificate().cert).',
        }),
      );
    }
    inst.net.setProxy({ host: args.host, port: args.port, ...(args.auth ? { auth: args.auth } : {}) }, ca);
    return { ok: true as const };
  },

  net_proxy_clear: (args, rt) => {
    target(rt, args).inst.net.clearProxy();
    return { ok: true as const };
  },

  net_offline_set: (args, rt) => {
    const { space, inst } = target(rt, args);
    inst.net.setOffline(args.offline);
    space.invalidate();
    return { ok: true as const };
  },

  net_state_get: (args, rt) => target(rt, args).inst.net.state(),

  net_info: async (_, rt) => rt.env.net.info(),
};
