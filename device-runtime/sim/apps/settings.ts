import { defineActivity, defineApp, type ActivityContext } from './define-app.js';
import { canvas, column, editText, iconButton, list, progress, text, toolbar, type Shape, type View } from './view.js';
import { prefRow, switchRow } from './widgets.js';
import { bigScreenActivity } from './big-screen.js';

interface SettingsData {
  wifi: boolean;
  bluetooth: boolean;
  darkTheme: boolean;
  /** Networks found by the last scan (the scan takes a while after Wi-Fi turns on). */
  networks: string[];
}
type Ctx<S = Record<string, never>> = ActivityContext<SettingsData, S>;

/** What Settings search finds: the title shown and words that match it (WLAN finds Wi-Fi). */
const INDEX = [
  {
    title: 'Wi-Fi',
    summary: 'Network & internet',
    words: 'wi-fi wifi wlan wireless network internet',
    activity: '.WifiSettingsActivity',
  },
  {
    title: 'Bluetooth',
    summary: 'Connected devices',
    words: 'bluetooth pairing devices',
    activity: '.BluetoothSettingsActivity',
  },
  {
    title: 'Dark theme',
    summary: 'Display',
    words: 'dark theme night mode display',
    activity: '.DisplaySettingsActivity',
  },
  {
    title: 'Android version',
    summary: 'About phone',
    words: 'android version about phone build',
    activity: '.DeviceInfoActivity',
  },
  {
    title: 'About phone',
    summary: 'Device name, version',
    words: 'about phone device name model',
    activity: '.DeviceInfoActivity',
  },
];

const SCAN_MS = 1500;

function setWifi(ctx: Ctx<any>, on: boolean): void {
  ctx.update((d) => {
    d.wifi = on;
    d.networks = [];
  });
  if (on)
    ctx.after(SCAN_MS, () =>
      ctx.update((d) => void (d.networks = d.wifi ? ['HomeNet', 'CoffeeShop Guest', 'NESTWRIGHT-5G'] : [])),
    );
}

/**
 * The update check's spinner: a dot going round once a second and an inner one once every
 * 7.3 seconds, drawn where `now` puts them. The check never ends, so the screen never stops
 * changing (what a visual comparison must refuse to compare). Two dots at speeds with no common
 * period short of 73 s: a once-a-second dot alone drew the same picture at moments a second apart,
 * the interval at which Playwright's comparison retries, so a pair of screenshots could match.
 */
function spinnerDot(now: number): Shape[] {
  const dot = (periodMs: number, radius: number, size: number): Shape => {
    const angle = ((now % periodMs) / periodMs) * 2 * Math.PI;
    const x = 540 + Math.round(Math.cos(angle) * radius);
    const y = 80 + Math.round(Math.sin(angle) * radius);
    return { rect: [x - size, y - size, x + size, y + size], color: '#1a73e8' };
  };
  return [dot(1000, 56, 14), dot(7300, 28, 8)];
}

const page = (title: string, ctx: Ctx<any>, body: View[]) =>
  column([toolbar(title, [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]), ...body]);

/**
 * Settings (`com.android.settings`), the system app present in every space: search, Wi-Fi (the
 * design's Appendix D task: open Settings → search WLAN → turn it on), Bluetooth, dark theme and
 * About phone with the Android version.
 */
export const settingsApp = defineApp<SettingsData>({
  package: 'com.android.settings',
  label: 'Settings',
  launcher: '.Settings',
  system: true,
  versionCode: 35,
  versionName: '15',
  initialData: () => ({ wifi: false, bluetooth: false, darkTheme: false, networks: [] }),
  activities: {
    '.Settings': defineActivity<SettingsData, Record<string, never>>({
      initialState: () => ({}),
      render: (ctx) =>
        column([
          toolbar('Settings', [
            iconButton('Search settings', () => ctx.start('.SearchActivity'), { id: 'search_action_bar' }),
          ]),
          list(
            [
              prefRow('Network & internet', ctx.data.wifi ? 'Wi-Fi on' : 'Wi-Fi off', () =>
                ctx.start('.WifiSettingsActivity'),
              ),
              prefRow('Connected devices', `Bluetooth ${ctx.data.bluetooth ? 'on' : 'off'}`, () =>
                ctx.start('.BluetoothSettingsActivity'),
              ),
              prefRow('Display', `Dark theme ${ctx.data.darkTheme ? 'on' : 'off'}`, () =>
                ctx.start('.DisplaySettingsActivity'),
              ),
              prefRow('Apps', 'Recent apps, default apps', () => ctx.toast('Apps settings are not simulated')),
              prefRow('Battery', '82%', () => ctx.toast('Battery settings are not simulated')),
              prefRow('About phone', 'Pixel Sim', () => ctx.start('.DeviceInfoActivity')),
            ],
            { id: 'recycler_view' },
          ),
        ]),
    }),
    '.SearchActivity': defineActivity<SettingsData, { query: string }>({
      initialState: () => ({ query: '' }),
      render: (ctx) => {
        const q = ctx.state.query.trim().toLowerCase();
        const hits = q ? INDEX.filter((e) => e.words.includes(q) || e.title.toLowerCase().includes(q)) : [];
        return column([
          toolbar('Search', [iconButton('Navigate up', () => ctx.finish(), { id: 'up' })]),
          editText(ctx.state.query, (query) => ctx.set({ query }), { id: 'search_src_text', hint: 'Search settings' }),
          q && hits.length === 0
            ? text(`No results for "${ctx.state.query}"`, { id: 'empty' })
            : list(
                hits.map((h) => prefRow(h.title, h.summary, () => ctx.start(h.activity))),
                { id: 'results' },
              ),
        ]);
      },
    }),
    '.WifiSettingsActivity': defineActivity<SettingsData, Record<string, never>>({
      initialState: () => ({}),
      render: (ctx) =>
        page('Wi-Fi', ctx, [
          switchRow('Use Wi-Fi', ctx.data.wifi, () => setWifi(ctx, !ctx.data.wifi)),
          ...(ctx.data.wifi && ctx.data.networks.length === 0 ? [progress({ id: 'scanning' })] : []),
          list(
            ctx.data.networks.map((n) => prefRow(n, 'Saved', () => ctx.toast(`Connecting to ${n}`))),
            { id: 'networks' },
          ),
        ]),
    }),
    '.BluetoothSettingsActivity': defineActivity<SettingsData, Record<string, never>>({
      initialState: () => ({}),
      render: (ctx) =>
        page('Bluetooth', ctx, [
          switchRow('Use Bluetooth', ctx.data.bluetooth, () => ctx.update((d) => void (d.bluetooth = !d.bluetooth))),
          text(ctx.data.bluetooth ? 'Device name: Pixel Sim' : 'Bluetooth is off', { id: 'bt_summary', tone: 'muted' }),
        ]),
    }),
    '.DisplaySettingsActivity': defineActivity<SettingsData, Record<string, never>>({
      initialState: () => ({}),
      render: (ctx) =>
        page('Display', ctx, [
          switchRow('Dark theme', ctx.data.darkTheme, () => ctx.update((d) => void (d.darkTheme = !d.darkTheme))),
        ]),
    }),
    // Reached only by app_intent (extras `nodes`): a screen as big as real apps' (big-screen.ts).
    '.BigScreenActivity': bigScreenActivity,
    '.DeviceInfoActivity': defineActivity<SettingsData, { checking: boolean }>({
      initialState: () => ({ checking: false }),
      render: (ctx) =>
        page('About phone', ctx, [
          prefRow('Device name', 'Pixel Sim', () => {}),
          prefRow('Android version', '15', () => ctx.toast('Android 15')),
          prefRow('Build number', 'AP3A.241105.008', () =>
            ctx.toast('You are now 4 steps away from being a developer.'),
          ),
          prefRow(
            'System update',
            ctx.state.checking ? 'Checking for update…' : 'Tap to check',
            () => ctx.set({ checking: true }),
            { id: 'system_update' },
          ),
          ...(ctx.state.checking
            ? [
                progress({ id: 'update_progress' }),
                canvas(spinnerDot(ctx.now()), () => {}, {
                  id: 'update_spinner',
                  desc: 'Checking',
                  height: 160,
                  grow: 0,
                }),
              ]
            : []),
        ]),
    }),
  },
});
