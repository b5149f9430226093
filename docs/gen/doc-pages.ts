/**
 * The documentation pages as data, for the checks of tests/docs/pages.test.ts: which pages there
 * are, their fenced blocks (with the line each starts on), their headings' anchors and their
 * relative links. A page is any `docs/*.md`; the site's navigation is docs/.vitepress/sidebar.ts.
 *
 * Anchors are GitHub's slugs of the headings, which the docs site is configured to make too
 * (docs/gen/slug.ts), so a link that resolves here works in both places.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from './api-examples.js';
import { githubSlug } from './slug.js';

export const DOCS = join(ROOT, 'docs');

/** The pages the checks read: every docs/*.md, and the repository's own README and CONTRIBUTING. */
export function pageFiles(): string[] {
  const pages = readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f));
  return [...pages, join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md')].filter((f) => existsSync(f)).sort();
}

export interface Block {
  file: string;
  /** Line of the block's first line of code (1-based). */
  line: number;
  lang: string;
  code: string;
}

/** Every fenced block of a page: its language (the fence's first word) and code. */
export function blocksOf(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const start = i + 1;
    let j = start;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence!)) j++;
    out.push({
      file,
      line: start + 1,
      lang: lang ?? '',
      code: lines
        .slice(start, j)
        .map((l) => l.slice(Math.min(indent!.length, l.length - l.trimStart().length)))
        .join('\n'),
    });
    i = j;
  }
  return out;
}

/** The page's text outside fenced blocks, line for line (blocks blanked), for headings and links. */
function prose(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  let fence: string | null = null;
  return lines.map((l) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(l);
    if (fence) {
      if (m && l.trimStart().startsWith(fence)) fence = null;
      return '';
    }
    if (m) {
      fence = m[1]!;
      return '';
    }
    return l;
  });
}

/** The anchors of a page: its headings' (deduplicated as GitHub and the site do: -1, -2…) and explicit `<a id>`s. */
export function anchorsOf(file: string): Set<string> {
  const both = new Set<string>();
  const seen = new Map<string, number>();
  const unique = (slug: string, counts: Map<string, number>) => {
    const n = counts.get(slug) ?? 0;
    counts.set(slug, n + 1);
    return n === 0 ? slug : `${slug}-${n}`;
  };
  for (const line of prose(file)) {
    for (const m of line.matchAll(/<a id="([^"]+)"><\/a>/g)) both.add(m[1]!);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    both.add(unique(githubSlug(h[1]!), seen));
  }
  return both;
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every relative Markdown link and image of a page (not http(s), mailto or a site path). */
export function linksOf(file: string): Link[] {
  const out: Link[] = [];
  prose(file).forEach((text, i) => {
    const line = text.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      out.push({ file, line: i + 1, target });
    }
  });
  return out;
}

/** What is wrong with a link: a missing file, a missing anchor, or a page of docs/ pointing outside it. */
export function linkProblem(link: Link): string | null {
  const [path, anchor] = link.target.split('#') as [string, string | undefined];
  const target = path ? resolve(dirname(link.file), decodeURI(path)) : link.file;
  const where = `${relative(ROOT, link.file)}:${link.line}: ${link.target}`;
  if (!existsSync(target)) return `${where}: no such file`;
  if (dirname(link.file) === DOCS && !target.startsWith(DOCS + '/') && target !== DOCS) {
    return `${where}: a page of docs/ links outside docs/, which the site does not have; name the file as code instead`;
  }
  if (anchor !== undefined) {
    if (statSync(target).isDirectory() || !target.endsWith('.md'))
      return `${where}: an anchor on a file that is not a page`;
    if (!anchorsOf(target).has(anchor))
      return `${where}: ${relative(ROOT, target)} has no heading or <a id> with the anchor #${anchor} `;
  }
  return null;
}
