import { defineConfig } from 'vitepress';
import { githubSlug } from '../gen/slug.js';
import { sidebar } from './sidebar.js';

/**
 * The docs site: the pages of docs/, the generated protocol page and TypeDoc's API reference
 * (docs/api), built by `npm run docs:site` into docs/.vitepress/dist. Nothing is fetched at
 * build or view time: the theme's font is bundled and the search index is built into the site
 * (local search), so the site works offline.
 */
export default defineConfig({
  title: 'nestwright',
  description: 'Playwright-style tests for Android apps in NestSpace virtual spaces',
  // docs/gen holds the generators, not pages.
  srcExclude: ['gen/**'],
  lastUpdated: false,
  cleanUrls: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/intro' },
      { text: 'API', link: '/api/README' },
    ],
    sidebar: [{ text: 'Guide', items: sidebar }],
    search: { provider: 'local' },
    outline: [2, 3],
  },
  // The protocol's API page is one large chunk; that is fine for a docs site.
  vite: { build: { chunkSizeWarningLimit: 4000 } },
  markdown: {
    // Pages are checked for real languages by tests/docs; 'text' marks output.
    defaultHighlightLang: 'text',
    // GitHub's anchors, so that `page.md#anchor` links work on GitHub and on the site alike.
    anchor: { slugify: githubSlug },
  },
});
