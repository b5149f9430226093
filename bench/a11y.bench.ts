import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import { SimRuntime } from '../device-runtime/sim/runtime.js';
import { auditScreen } from '../framework/a11y/audit-screen.js';
import { RULE_NAMES, RULES } from '../framework/a11y/rules.js';
import { median, percentile, round, sample, type BenchSection } from './section.js';

const APKS = resolve(import.meta.dirname, '../fixtures/apks');
const ctx = { sessionId: 'bench', caller: 'REMOTE_MCP' as const };

async function call(rt: SimRuntime, name: string, args: object): Promise<any> {
  const r = await rt.call(name, args, ctx);
  if (!r.ok) throw new Error(`bench: ${name}: ${r.error.code}: ${r.error.message}`);
  return r.result;
}

/**
 * An accessibility audit of one screen as `app.accessibilityAudit()` runs it after its
 * observation: the tree rules alone, then every rule, the screenshot's PNG decoding included
 * (taken at scale 0.5, as the audit takes it). The screen: the Shop product page (`detail: full`),
 * its node list cut or repeated to 40 nodes.
 */
export async function benchAccessibility(): Promise<BenchSection> {
  const rt = new SimRuntime({ slots: 4 });
  const { space_id } = await call(rt, 'space_create', {});
  await call(rt, 'session_acquire', { space_id });
  await call(rt, 'space_install_apk', { space_id, apk_paths: [`${APKS}/shop.apk`] });
  await call(rt, 'space_launch', { space_id, package: 'com.nestwright.shop', activity: '.ProductActivity' });
  await new Promise((r) => setTimeout(r, 2_000));
  const obs = await call(rt, 'ui_observe', { space_id, detail: 'full' });
  const nodes = Array.from({ length: 40 }, (_, i) => ({ ...obs.nodes[i % obs.nodes.length], id: `b${i}` }));
  const shot = await call(rt, 'ui_screenshot', { space_id, scale: 0.5 });
  const png = Buffer.from(shot.data, 'base64');
  const tree = RULE_NAMES.filter((r) => !RULES[r].pixels);
  const input = { nodes, density: 420, screen: obs.screen, pixels: null };
  const rows: BenchSection['rows'] = [];
  const add = (what: string, xs: number[], findings: number) =>
    rows.push({
      what,
      'median ms': round(median(xs), 3),
      'p95 ms': round(percentile(xs, 95), 3),
      runs: xs.length,
      findings,
    });
  add(
    `audit, ${nodes.length} nodes, tree rules (${tree.length})`,
    await sample(300, () => auditScreen(input, tree), 20),
    auditScreen(input, tree).length,
  );
  const decoded = PNG.sync.read(png);
  const checks = () => auditScreen({ ...input, pixels: decoded }, RULE_NAMES);
  add(
    `audit, ${nodes.length} nodes, all rules with the contrast ones (pixels decoded)`,
    await sample(100, checks, 10),
    checks().length,
  );
  add(`PNG decode (pngjs), ${decoded.width}×${decoded.height}`, await sample(30, () => PNG.sync.read(png), 3), 0);
  const all = () => auditScreen({ ...input, pixels: PNG.sync.read(png) }, RULE_NAMES);
  add(`audit, ${nodes.length} nodes, all rules, PNG decode included`, await sample(30, all, 3), all().length);
  return {
    title: 'Accessibility audit',
    rows,
    notes: [
      `Screenshot ${shot.width ?? '?'}×${shot.height ?? '?'} px (scale 0.5); the figures exclude the observation and the screenshot's device call.`,
    ],
  };
}
