import { z } from 'zod';
import { NETWORK_PRESETS, NETWORK_PRESET_ALIASES } from '../../../framework/network/conditions.js';
import { applyWorldOptions } from '../../../framework/world/index.js';
import { js, logOf, record } from '../authoring/log.js';
import type { AgentState } from '../state.js';
import { defineAgentTool } from '../tool.js';

/**
 * `set_conditions`: one live instance's world and network, through the same App members a spec
 * calls (`app.setOffline`, `app.emulateNetworkConditions`, `app.setGeolocation`) and the launch's
 * world options (locale, time zone, dark mode), so a plan's "offline", "in Berlin" or "on a slow
 * network" is acted in, and generate_spec writes the same calls. Other instances are untouched.
 */
const PRESETS = [...Object.keys(NETWORK_PRESETS), ...Object.keys(NETWORK_PRESET_ALIASES)] as [string, ...string[]];

export function conditionTools(state: AgentState) {
  const setConditions = defineAgentTool({
    name: 'set_conditions',
    title: 'Set the world and network',
    description: `Set one instance's world and network (nothing else changes): offline (true/false), network (a preset: ${PRESETS.map((p) => `'${p}'`).join(', ')}; an object { latency_ms, download_bps, upload_bps, packet_loss }; null: no throttling), location ({ latitude, longitude } or null), locale ('de-DE'), timezone ('Europe/Berlin'), color_scheme ('dark'/'light'). Logged for generate_spec as the spec's calls.`,
    input: z
      .object({
        session: z.string().min(1).describe('A session id from open_app'),
        offline: z.boolean().optional(),
        network: z
          .union([
            z.enum(PRESETS),
            z
              .object({
                latency_ms: z.number().min(0).max(60_000).optional(),
                download_bps: z.number().min(0).optional(),
                upload_bps: z.number().min(0).optional(),
                packet_loss: z.number().min(0).max(100).optional(),
              })
              .strict(),
            z.null(),
          ])
          .optional(),
        location: z
          .object({
            latitude: z.number().min(-90).max(90),
            longitude: z.number().min(-180).max(180),
            accuracy: z.number().min(0).optional(),
          })
          .strict()
          .nullable()
          .optional(),
        locale: z.string().min(2).max(35).optional(),
        timezone: z.string().min(1).max(64).optional(),
        color_scheme: z.enum(['light', 'dark']).optional(),
      })
      .strict(),
    result: z.object({ applied: z.array(z.string()).describe('What was set, as spec code') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, ctx) {
      const s = state.sessions.get(ctx.sessionId, input.session);
      const applied: string[] = [];
      const setup = (code: string) => {
        applied.push(code);
        record(s, { intent: null, kind: 'setup', code });
      };
      const world = {
        ...(input.locale !== undefined ? { locale: input.locale } : {}),
        ...(input.timezone !== undefined ? { timezoneId: input.timezone } : {}),
        ...(input.color_scheme !== undefined ? { colorScheme: input.color_scheme } : {}),
      };
      if (Object.keys(world).length) {
        await applyWorldOptions(
          s.space.client,
          { space_id: s.space.id, package: s.app.package, ...(s.app.instance ? { instance: s.app.instance } : {}) },
          world,
        );
        Object.assign(logOf(s).use, world);
        applied.push(`test.use(${JSON.stringify(world)})`);
      }
      if (input.location !== undefined) {
        await s.app.setGeolocation(input.location);
        setup(
          `await app.setGeolocation(${input.location ? `{ latitude: ${input.location.latitude}, longitude: ${input.location.longitude}${input.location.accuracy !== undefined ? `, accuracy: ${input.location.accuracy}` : ''} }` : 'null'});`,
        );
      }
      if (input.network !== undefined) {
        const n = input.network;
        const given =
          n === null || typeof n === 'string'
            ? n
            : {
                ...(n.latency_ms !== undefined ? { latency: n.latency_ms } : {}),
                ...(n.download_bps !== undefined ? { download: n.download_bps } : {}),
                ...(n.upload_bps !== undefined ? { upload: n.upload_bps } : {}),
                ...(n.packet_loss !== undefined ? { packetLoss: n.packet_loss } : {}),
              };
        await s.app.emulateNetworkConditions(given as Parameters<typeof s.app.emulateNetworkConditions>[0]);
        setup(
          `await app.emulateNetworkConditions(${typeof given === 'string' ? js(given) : given === null ? 'null' : JSON.stringify(given).replace(/"(\w+)":/g, '$1: ')});`,
        );
      }
      if (input.offline !== undefined) {
        await s.app.setOffline(input.offline);
        setup(`await app.setOffline(${input.offline});`);
      }
      return { result: { applied } };
    },
  });
  return [setConditions];
}
