import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CheckFailed } from './check.js';
import type { Session } from './session.js';

export const NOTES = 'com.nestwright.notes';
export const SHOP = 'com.nestwright.shop';

/** The fixture APKs shipped in the package (found by its own name: the same from sources and dist/). */
export function packagedApks(): { notes: string; shop: string } {
  const root = dirname(createRequire(import.meta.url).resolve('nestwright/package.json'));
  return { notes: join(root, 'fixtures/apks/notes.apk'), shop: join(root, 'fixtures/apks/shop.apk') };
}

export interface Node {
  id: string;
  text: string | null;
  res_id?: string | null;
  bounds: [number, number, number, number];
}

/** The node whose resource id is `<pkg>:id/<name>` (or whose text is `name`) on the current screen. */
export async function findNode(
  s: Session,
  space_id: string,
  name: string,
): Promise<{ node: Node; snapshot_id: string }> {
  const obs = await s.ok('ui_observe', { space_id, max_nodes: 500 });
  const nodes = (obs.nodes ?? []) as Node[];
  const node = nodes.find((n) => n.res_id?.endsWith(`:id/${name}`)) ?? nodes.find((n) => n.text === name);
  if (!node)
    throw new CheckFailed(`no node "${name}" on the screen of ${obs.package}/${obs.activity} (${nodes.length} nodes)`);
  return { node, snapshot_id: obs.snapshot_id };
}

/** Whether some node on the screen shows `text`. */
export async function screenShows(s: Session, space_id: string, text: string): Promise<boolean> {
  const obs = await s.ok('ui_observe', { space_id, max_nodes: 500 });
  return ((obs.nodes ?? []) as Node[]).some((n) => n.text === text);
}

/** In Notes (its list in front): add a note titled `title` and go back to the list. */
export async function addNote(s: Session, space_id: string, title: string): Promise<void> {
  await s.ok('ui_tap', { space_id, node_id: (await findNode(s, space_id, 'new_note')).node.id });
  await s.ok('ui_set_text', { space_id, node_id: (await findNode(s, space_id, 'title')).node.id, text: title });
  await s.ok('ui_tap', { space_id, node_id: (await findNode(s, space_id, 'save')).node.id });
}
