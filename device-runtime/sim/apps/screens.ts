/**
 * Every screen of the sample apps, written down from their models: the ground truth a crawler
 * (`nestwright crawl`, bench/crawl.bench.ts) is measured against. A screen is its activity and
 * what its tree holds — resource ids (`email`) or texts (`text:Copy`) it must have, and ones it
 * must not — never the data it shows. Two windows of the same structure are one screen (a
 * menu of one item is one screen whatever its item says). Loading states, snackbars and states that need a fault
 * (offline, a failing server) are left out: they pass by on their own.
 */
export interface ScreenTruth {
  name: string;
  activity: string;
  has: string[];
  lacks?: string[];
}

export const SAMPLE_SCREENS: Record<string, ScreenTruth[]> = {
  'com.nestwright.notes': [
    { name: 'No notes yet', activity: '.MainActivity', has: ['empty', 'new_note'], lacks: ['search_field'] },
    { name: 'Overflow menu', activity: '.MainActivity', has: ['text:Load sample notes', 'text:Delete all notes'] },
    { name: 'Notes list', activity: '.MainActivity', has: ['notes', 'note_row', 'new_note'] },
    { name: 'Note menu (long press)', activity: '.MainActivity', has: ['alertTitle', 'text:Copy text'] },
    { name: 'Delete a note? (from the list)', activity: '.MainActivity', has: ['text:Delete this note?'] },
    { name: 'Search, nothing found', activity: '.MainActivity', has: ['search_field', 'empty'] },
    { name: 'Search results', activity: '.MainActivity', has: ['search_field', 'results'] },
    { name: 'New note', activity: '.EditNoteActivity', has: ['title', 'body', 'save'], lacks: ['delete', 'message'] },
    { name: 'Edit note', activity: '.EditNoteActivity', has: ['title', 'delete'], lacks: ['message'] },
    { name: 'Delete a note? (from the editor)', activity: '.EditNoteActivity', has: ['text:Delete this note?'] },
    { name: 'Settings', activity: '.SettingsActivity', has: ['toggle_sync'] },
  ],
  'com.nestwright.shop': [
    { name: 'Sign in', activity: '.LoginActivity', has: ['email', 'login'], lacks: ['error'] },
    { name: 'Sign in, with an error', activity: '.LoginActivity', has: ['email', 'error'] },
    { name: 'Terms', activity: '.TermsActivity', has: ['terms_webview'] },
    { name: 'Catalog', activity: '.CatalogActivity', has: ['products', 'cart'], lacks: ['cart_badge'] },
    { name: 'Catalog, cart not empty', activity: '.CatalogActivity', has: ['products', 'cart_badge'] },
    { name: 'Daily game', activity: '.CatalogActivity', has: ['game_surface'] },
    { name: 'Help', activity: '.HelpActivity', has: ['help_webview'] },
    { name: 'Product', activity: '.ProductActivity', has: ['product_name', 'add_to_cart'] },
    { name: 'Cart, empty', activity: '.CartActivity', has: ['empty', 'coupon'] },
    { name: 'Cart with items', activity: '.CartActivity', has: ['cart_items', 'coupon'] },
    { name: 'Checkout', activity: '.CheckoutActivity', has: ['address', 'place_order'], lacks: ['confirm_order'] },
    {
      name: 'Location permission prompt',
      activity: '.permission.ui.GrantPermissionsActivity',
      has: ['permission_allow_foreground_only_button'],
    },
    { name: 'Place order?', activity: '.CheckoutActivity', has: ['confirm_order'] },
    { name: 'Payment', activity: '.CheckoutActivity', has: ['payment_progress'] },
    { name: 'Order confirmed', activity: '.CheckoutActivity', has: ['paid', 'continue'] },
  ],
  'com.nestwright.chat': [
    { name: 'Choose a name', activity: '.ConversationListActivity', has: ['name', 'join'] },
    { name: 'Room, no messages', activity: '.ConversationActivity', has: ['empty', 'message_input'] },
    { name: 'Room with messages', activity: '.ConversationActivity', has: ['messages', 'message_input'] },
    // A message's menu (Copy) and the field's (Paste): one dialog with one item, the same screen.
    { name: 'One-item menu (Copy, Paste)', activity: '.ConversationActivity', has: ['parentPanel', 'title'] },
  ],
  'com.android.settings': [
    { name: 'Settings', activity: '.Settings', has: ['recycler_view'] },
    { name: 'Search', activity: '.SearchActivity', has: ['search_src_text'], lacks: ['empty', 'title'] },
    { name: 'Search, no results', activity: '.SearchActivity', has: ['search_src_text', 'empty'] },
    { name: 'Search results', activity: '.SearchActivity', has: ['search_src_text', 'title'] },
    { name: 'Wi-Fi', activity: '.WifiSettingsActivity', has: ['switch_widget'], lacks: ['title'] },
    { name: 'Wi-Fi on, networks', activity: '.WifiSettingsActivity', has: ['switch_widget', 'title'] },
    { name: 'Bluetooth', activity: '.BluetoothSettingsActivity', has: ['bt_summary'] },
    { name: 'Display', activity: '.DisplaySettingsActivity', has: ['switch_widget'] },
    { name: 'About phone', activity: '.DeviceInfoActivity', has: ['system_update'], lacks: ['update_progress'] },
    { name: 'About phone, checking for update', activity: '.DeviceInfoActivity', has: ['update_progress'] },
  ],
};

/** Whether a screen's nodes (an observation's) are the screen `t` describes. */
export function matchesTruth(
  t: ScreenTruth,
  screen: { activity: string | null; nodes: Array<{ res_id?: string | null | undefined; text: string | null }> },
): boolean {
  if (screen.activity !== t.activity) return false;
  const holds = (want: string) =>
    want.startsWith('text:')
      ? screen.nodes.some((n) => n.text === want.slice(5))
      : screen.nodes.some((n) => n.res_id?.endsWith(`:id/${want}`));
  return t.has.every(holds) && !(t.lacks ?? []).some(holds);
}
