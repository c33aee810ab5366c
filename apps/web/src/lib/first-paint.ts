/**
 * The headings a page shows the same to everyone who opens it, also painted by the server's HTML before any
 * code runs (docs/decisions/0150-first-paint-headings.md): the build writes one page a path from this table
 * (scripts/first-paint.mjs) and the screen renders the same heading in the same place.
 */
import table from './first-paint.json';

export type FirstPaintPage = keyof typeof table;

/** A page's title and description, as its PageHeader shows them and its first paint drew them. */
export function pageHeading(page: FirstPaintPage): { title: string; description: string } {
  const { title, description } = table[page];
  return { title, description };
}
