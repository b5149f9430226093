import { z } from 'zod';
import { defineTool } from '../tool.js';
import { InstanceIdSchema, Ok, PackageNameSchema, SpaceIdSchema } from '../common.js';

/**
 * The `net_proxy` extension: one app instance's network, in the client's hands. A NestSpace
 * container controls its app's process, so it can give that process a proxy setting and a trust
 * store of its own: `net_proxy_set` sends every HTTP(S) request of one instance through an HTTP
 * proxy (HTTP CONNECT for https) and makes the instance trust the proxy's CA besides its system
 * trust store; `net_offline_set` takes the instance's connectivity away. Each setting is the
 * instance's, and gone with it (space_stop with remove_instance or clear_data). `net_info` says
 * what a proxy on the test machine needs to reach this runtime's app backends as the app would:
 * the names the runtime resolves itself, and the CA its system trust store holds beyond public ones.
 */

/** Which instance a network tool acts on: the app's package and its instance id (`0` when left out). */
const instanceRef = {
  space_id: SpaceIdSchema,
  package: PackageNameSchema,
  instance: InstanceIdSchema.optional().describe('The instance (from space_launch); default "0"'),
};

/** A PEM certificate (or several, concatenated): checked by the runtime, which names what is wrong. */
export const CaPemSchema = z
  .string()
  .min(1)
  .max(1_000_000)
  .describe('One or more PEM certificates (-----BEGIN CERTIFICATE-----…) the instance trusts besides its system store');

export const NetProxySchema = z.object({
  host: z.string().min(1).max(253).describe('Host name or address of the HTTP proxy, as the device reaches it'),
  port: z.number().int().min(1).max(65_535),
});
export type NetProxy = z.infer<typeof NetProxySchema>;

/**
 * The proxy's credentials (HTTP Basic, RFC 7617): a proxy on the test machine relays only for
 * the runtime it was set on, and answers 407 to a connection whose first request lacks them.
 */
export const NetProxyAuthSchema = z
  .object({
    username: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[^:\u0000-\u001f\u007f]+$/, 'a Basic user-id has no colon and no control characters'),
    password: z
      .string()
      .min(1)
      .max(256)
      .regex(/^[^\u0000-\u001f\u007f]+$/, 'a Basic password has no control characters'),
  })
  .describe(
    'Credentials the instance sends to the proxy: `Proxy-Authorization: Basic base64(username:password)` on every connection it opens to it (each CONNECT, and each request of a plain one). A secret: never read back, logged or shown; gone with net_proxy_clear',
  );
export type NetProxyAuth = z.infer<typeof NetProxyAuthSchema>;

/** What the network tools have set on one instance. */
export const NetStateSchema = z.object({
  proxy: NetProxySchema.extend({
    auth: z.boolean().describe('Whether net_proxy_set gave credentials (never the credentials themselves)'),
  })
    .nullable()
    .describe('null: the instance connects directly'),
  extra_ca: z.boolean().describe('Whether the instance trusts a CA given with net_proxy_set'),
  offline: z.boolean().describe('true: the instance has no connectivity; every socket it opens fails'),
});
export type NetState = z.infer<typeof NetStateSchema>;

/** A name this runtime resolves itself (its hosts file), and where it leads on the test machine. */
export const NetHostSchema = z.object({
  host: z.string().describe('The name the app uses, e.g. api.shop.nestwright.test'),
  port: z.number().int().describe('The port the app connects to, e.g. 443'),
  address: z.string().describe('Where a proxy on the test machine connects instead, e.g. 127.0.0.1'),
  address_port: z.number().int(),
});
export type NetHost = z.infer<typeof NetHostSchema>;

export const NetInfoSchema = z.object({
  hosts: z.array(NetHostSchema).describe('Names the runtime resolves itself; [] on a real device'),
  system_ca_pem: z
    .string()
    .nullable()
    .describe("The CA(s) the runtime's system trust store holds beyond public ones (PEM); null on a real device"),
});
export type NetInfo = z.infer<typeof NetInfoSchema>;

export const net_proxy_set = defineTool({
  name: 'net_proxy_set',
  title: 'Route {package} through proxy {host}:{port}',
  description:
    "Send every HTTP(S) request the instance's app makes, its WebViews' included, through the HTTP proxy host:port (HTTP CONNECT for https), with `auth` in Proxy-Authorization when given, and make the instance trust `ca_pem` in addition to its system trust store. Replaces an earlier setting.",
  mutating: true,
  extension: true,
  group: 'net_proxy',
  input: z.object({
    ...instanceRef,
    ...NetProxySchema.shape,
    ca_pem: CaPemSchema,
    auth: NetProxyAuthSchema.optional(),
  }),
  result: Ok,
});

export const net_proxy_clear = defineTool({
  name: 'net_proxy_clear',
  title: 'Connect {package} directly',
  description:
    'The instance connects directly again, no longer trusts the CA net_proxy_set gave it, and forgets its proxy credentials.',
  mutating: true,
  extension: true,
  group: 'net_proxy',
  input: z.object(instanceRef),
  result: Ok,
});

export const net_offline_set = defineTool({
  name: 'net_offline_set',
  title: 'Set {package} offline {offline}',
  description:
    'Take the instance offline (the container reports no connectivity to the app and every socket it opens fails) or bring it back. Independent of the proxy.',
  mutating: true,
  extension: true,
  group: 'net_proxy',
  input: z.object({ ...instanceRef, offline: z.boolean() }),
  result: Ok,
});

export const net_state_get = defineTool({
  name: 'net_state_get',
  title: 'Read the network of {package}',
  description:
    'What the network tools have set on an instance: its proxy (and whether it has credentials for it, never what they are), whether it trusts an extra CA, offline.',
  extension: true,
  group: 'net_proxy',
  input: z.object(instanceRef),
  result: NetStateSchema,
});

export const net_info = defineTool({
  name: 'net_info',
  title: 'Network info',
  description:
    "What a proxy on the test machine needs to reach this runtime's app backends as the app would: the names the runtime resolves itself (host:port → address:port) and the CA its system trust store holds beyond public ones. A real device answers { hosts: [], system_ca_pem: null }.",
  extension: true,
  group: 'net_proxy',
  input: z.object({}),
  result: NetInfoSchema,
});

export const networkTools = [net_proxy_set, net_proxy_clear, net_offline_set, net_state_get, net_info] as const;
