import type { Key } from '../protocol/index.js';

/** Roles of Android view classes, as the protocol names them (shared by the providers that read a device's tree). */
const ROLES: Array<[RegExp, string]> = [
  [/EditText|AutoCompleteTextView/, 'textbox'],
  [/CheckBox|CheckedTextView/, 'checkbox'],
  [/Switch|ToggleButton/, 'switch'],
  [/RadioButton/, 'radio'],
  [/Button/, 'button'],
  [/ImageView/, 'image'],
  [/RecyclerView|ListView|GridView|ScrollView/, 'list'],
  [/Toolbar|ActionBar/, 'toolbar'],
  [/ProgressBar/, 'progressbar'],
  [/WebView/, 'webview'],
  [/TextView/, 'text'],
  [/Layout|ViewGroup|FrameLayout/, 'group'],
];

export const roleOf = (cls: string, clickable: boolean): string =>
  ROLES.find(([re]) => re.test(cls))?.[1] ?? (clickable ? 'button' : 'view');

/** `[l,t][r,b]`, as UiAutomator's dumps and the companion write bounds; zeros when it is not that. */
export function parseBounds(s: string | null): [number, number, number, number] {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(s ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : [0, 0, 0, 0];
}

/** Android key codes of the protocol's keys. */
export const KEYCODES: Record<Key, number> = {
  back: 4,
  home: 3,
  recents: 187,
  enter: 66,
  delete: 67,
  tab: 61,
  search: 84,
  menu: 82,
  notifications: 83,
};
