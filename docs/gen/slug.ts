/**
 * A heading's anchor, as GitHub makes it: lower case, punctuation dropped, spaces as dashes. The
 * docs site uses the same function (docs/.vitepress/config.mts), so a link such as
 * `protocol.md#space_list` works on GitHub and on the site alike.
 */
export function githubSlug(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}
