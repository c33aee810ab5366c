import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { products } from './schema/index.ts';

function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/**
 * The LIKE pattern of a case- and accent-insensitive "contains"; undefined for an empty search. Control
 * characters are dropped: a product's stored search text keeps its fields one per line (decision 0077), and
 * no term may match across them.
 */
export function foldedPattern(q: string | undefined): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const term = fold((q ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim());
  return term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
}

/**
 * Any of the columns, lower-cased and without accents, matches the pattern of foldedPattern. The folding is
 * the database's `portal_fold` (migration 0020: `translate(lower(…))` over the accents of Spanish), which
 * the users' trigram indexes are built on, so a search of their username, name or e-mail is an index scan
 * (decision 0068).
 */
export function foldedLike(columns: AnyPgColumn[], like: string | Placeholder): SQL {
  const parts = columns.map((c) => sql`portal_fold(${c}) like ${like}`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * A term with three letters or digits in a row: its trigrams narrow the users' trigram indexes (decision
 * 0068), so a statement matching it there has the indexes' plan whatever the term, and may keep a generic
 * plan (decision 0083). A shorter term gives the indexes nothing to narrow.
 */
export const hasTrigram = (q: string) => /[\p{L}\p{N}]{3}/u.test(q);

/** Case- and accent-insensitive "contains" over any of the columns; undefined for an empty search. */
export function foldedSearch(columns: AnyPgColumn[], q: string | undefined): SQL | undefined {
  const like = foldedPattern(q);
  return like === undefined ? undefined : foldedLike(columns, like);
}

/** The row offset of a 1-based page. */
export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;

/** A product search's values (the catalogue's, the inventory's and the assignments' search). */
interface SearchTerms<T> {
  /** `%term%`, folded and escaped (db/search.ts). */
  like: T;
  /** `price%` when the term reads as a price ("189.9", "$1,250"). */
  price?: T;
}

/** The values a search compares with; undefined for an empty one. */
export function searchTerms(q: string): SearchTerms<string> | undefined {
  const like = foldedPattern(q);
  if (!like) return undefined;
  const price = q.trim().replace(/[$,\s]/g, '');
  return {
    like,
    price: /^\d+(\.\d{0,2})?$/.test(price) ? `${price}%` : undefined,
  };
}

/**
 * The product's name, clave interna or clave del cliente contains the term (case and accents ignored: the
 * stored `busqueda` text, decision 0077), or its price starts with it.
 */
export function searchSql(terms: SearchTerms<string | Placeholder>): SQL {
  const name = sql`${products.busqueda} like ${terms.like}`;
  if (terms.price === undefined) return name;
  return sql`(${name} or to_char(${products.precio} / 100.0, 'FM999999999990.00') like ${terms.price})`;
}

/** Search by name, internal or client key (case- and accent-insensitive) or price ("189.9", "$1,250"). */
export function searchCondition(q: string): SQL | undefined {
  const terms = searchTerms(q);
  return terms && searchSql(terms);
}
