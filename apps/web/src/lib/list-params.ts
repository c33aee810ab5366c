/**
 * A list's filters, sort and page in the URL query, read and written through the shared zod schema of the
 * endpoint the list calls (its `*Query` in packages/shared/src/schemas): the screen and the server agree
 * on what each parameter may hold. Each field is read on its own, so one bad value (a hand-edited link, an
 * old bookmark) falls back to that field's default — or to no filter — and leaves the others alone; a
 * value written back that is the field's default leaves the URL, and a change of anything but the page
 * goes back to page 1. `keys` names the URL's parameter of a field where the screen's URL has always
 * called it otherwise (`?estatus=` for the schema's `status`). The reading and writing are pure functions,
 * unit-tested.
 */
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useRef } from 'react';
import type { z } from 'zod';
import { useSearchParamsUpdate } from './search-params';

/** A `*Query` schema: an object whose fields are all optional or defaulted (pick them when some are not). */
export type ListQuerySchema = z.ZodObject;
export type ListValues<S extends ListQuerySchema> = z.output<S>;
type Field<S extends ListQuerySchema> = keyof S['shape'] & string;
export type UrlKeys<S extends ListQuerySchema> = Partial<Record<Field<S>, string>>;
/** A field's new value: null (or '') for none. */
export type ListChanges<V> = { [K in keyof V]?: V[K] | null };

const NO_KEYS = {};

const fieldsOf = (schema: ListQuerySchema) => Object.entries(schema.shape) as [string, z.ZodType][];

/** What a field holds when the URL has nothing (valid) for it: its default, or undefined. */
function fallback(field: z.ZodType): unknown {
  const result = field.safeParse(undefined);
  return result.success ? result.data : undefined;
}

/** The list's values in `params`: each field parsed alone, its fallback when absent, empty or invalid. */
export function readListParams<S extends ListQuerySchema>(
  schema: S,
  params: URLSearchParams,
  keys: UrlKeys<S> = NO_KEYS,
): ListValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of fieldsOf(schema)) {
    const raw = params.get((keys as Record<string, string>)[name] ?? name);
    const result = raw === null || raw === '' ? null : field.safeParse(raw);
    values[name] = result?.success ? result.data : fallback(field);
  }
  return values as ListValues<S>;
}

/**
 * The URL changes of new values: a field set to null, '' or its default leaves the URL; any change that
 * does not name the page sends the list back to page 1 (when the schema has a `page`).
 */
export function listParamChanges<S extends ListQuerySchema>(
  schema: S,
  changes: ListChanges<ListValues<S>>,
  keys: UrlKeys<S> = NO_KEYS,
): Record<string, string | null> {
  const urlKey = (name: string) => (keys as Record<string, string>)[name] ?? name;
  const out: Record<string, string | null> = {};
  if ('page' in schema.shape && !('page' in changes)) out[urlKey('page')] = null;
  for (const [name, value] of Object.entries(changes as Record<string, unknown>)) {
    const field = schema.shape[name] as z.ZodType | undefined;
    const none = value === null || value === undefined || value === '';
    out[urlKey(name)] = none || (field && value === fallback(field)) ? null : String(value);
  }
  return out;
}

export interface ListParams<V> {
  /** The parsed values (see readListParams). */
  values: V;
  /** A field's text as it stands in the URL, '' when absent: what a search box shows while it is typed. */
  text(field: keyof V & string): string;
  /** Writes new values; it replaces the history entry unless `{push: true}`. */
  set(changes: ListChanges<V>, options?: { push?: boolean }): void;
}

/** The list's parameters in the URL through its shared `*Query` schema (see the top of this file). */
export function useListParams<S extends ListQuerySchema>(
  schema: S,
  keys: UrlKeys<S> = NO_KEYS,
): ListParams<ListValues<S>> {
  const [params, update] = useSearchParamsUpdate();
  const set = useCallback<ListParams<ListValues<S>>['set']>(
    (changes, options) => update(listParamChanges(schema, changes, keys), options),
    [update, schema, keys],
  );
  return {
    values: readListParams(schema, params, keys),
    text: (field) => params.get((keys as Record<string, string>)[field] ?? field) ?? '',
    set,
  };
}

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The page and the search box of a list whose schema has `page` and `q`: the search as typed, the search
 * sent (trimmed, after a pause), and their setters. A new search (from the list's box, or the navbar's
 * 'Buscar...', which writes the same `q`) starts again on page 1; a new page scrolls to the top.
 */
export function usePagedSearch(list: ListParams<{ page: number; q?: string }>) {
  const page = list.values.page;
  const q = list.text('q');
  const [debouncedQ] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const lastQ = useRef(debouncedQ);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the search resets the page
  useEffect(() => {
    if (lastQ.current !== debouncedQ) {
      lastQ.current = debouncedQ;
      if (page !== 1) list.set({ page: 1 });
    }
  }, [debouncedQ]);
  return {
    page,
    q,
    debouncedQ,
    setPage: (p: number) => {
      list.set({ page: p });
      window.scrollTo({ top: 0 });
    },
    setQ: (value: string) => list.set({ q: value }),
  };
}
