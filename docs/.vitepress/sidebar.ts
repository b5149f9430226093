/**
 * The docs site's navigation, in the order of Playwright's docs. A new page is one file,
 * docs/TOPIC.md, and one line here; tests/docs/pages.test.ts fails when a page under docs/ is
 * missing from this list or a line names no page.
 */
export interface SidebarItem {
  text: string;
  /** The page, as a site path: '/locators' for docs/locators.md. */
  link: string;
}

export const sidebar: SidebarItem[] = [
  { text: 'Getting started', link: '/intro' },
  { text: 'Writing tests', link: '/writing-tests' },
  { text: 'Locators', link: '/locators' },
  { text: 'Actions', link: '/actions' },
  { text: 'Assertions', link: '/assertions' },
  { text: 'Visual comparisons', link: '/visual-comparisons' },
  { text: 'Fixtures and isolation', link: '/fixtures' },
  { text: 'Configuration', link: '/configuration' },
  { text: 'Devices', link: '/devices' },
  { text: "The app's world", link: '/app-world' },
  { text: 'WebViews', link: '/webviews' },
  { text: 'Network', link: '/network' },
  { text: 'Video', link: '/video' },
  { text: 'Continuous integration', link: '/ci' },
  { text: 'AI steps', link: '/ai' },
  { text: 'Model providers', link: '/models' },
  { text: "The device's agent", link: '/device-agent' },
  { text: 'Healing', link: '/healing' },
  { text: 'Skills and Maestro import', link: '/skills' },
  { text: 'App functions', link: '/functions' },
  { text: 'Maestro', link: '/maestro' },
  { text: 'Agent MCP server', link: '/mcp' },
  { text: 'Test agents', link: '/agents' },
  { text: 'Inspector and trace viewer', link: '/inspector' },
  { text: 'Appium and WebdriverIO', link: '/appium' },
  { text: 'APK preflight', link: '/preflight' },
  { text: 'Errors', link: '/errors' },
  { text: 'Timing and fault profiles', link: '/timing' },
  { text: 'Accessibility audits', link: '/accessibility' },
  { text: 'Crawling an app', link: '/crawl' },
  { text: 'Device protocol', link: '/protocol' },
  { text: 'Making a runtime nestwright-ready', link: '/runtime-authors' },
  { text: 'Security', link: '/security' },
  { text: 'API reference', link: '/api/README' },
];
