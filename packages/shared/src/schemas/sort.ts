/**
 * A list's sort (decision 0067): the query parameter `orden`, whose values are `<campo>_<asc|desc>`, one
 * zod enum per list with its default; anything else answers 400 'El orden de la lista no es válido.'.
 * The server breaks ties on the id (same direction) so pages never overlap; the web keeps `orden` in the
 * screen's URL and reads it back with `read` (an unknown value there falls back to the default).
 */
import { z } from 'zod';
import { MSG } from '../messages.ts';

export type SortDirection = 'asc' | 'desc';
export type SortValue<F extends string> = `${F}_${SortDirection}`;

export interface ListSort<F extends string> {
  /** Every value the list accepts, `<campo>_asc` and `<campo>_desc` for each field, in the fields' order. */
  values: readonly SortValue<F>[];
  byDefault: SortValue<F>;
  /** The query's `orden`: one of `values`, `byDefault` when absent, 400 with a Spanish message otherwise. */
  schema: z.ZodDefault<z.ZodEnum<{ [K in SortValue<F>]: K }>>;
  /** A value read from a URL: itself when the list accepts it, else the default. */
  read: (raw: string | null | undefined) => SortValue<F>;
}

/** The sort of a list sortable by `fields`, `byDefault` when the query has none. */
export function listSort<const F extends string>(
  fields: readonly [F, ...F[]],
  byDefault: SortValue<F>,
): ListSort<F> {
  const values = fields.flatMap((f) => [`${f}_asc`, `${f}_desc`] as SortValue<F>[]);
  const schema = z
    .enum(values as [SortValue<F>, ...SortValue<F>[]], { error: MSG.ordenInvalido })
    .default(byDefault as never) as unknown as ListSort<F>['schema'];
  const accepted = new Set<string>(values);
  return {
    values,
    byDefault,
    schema,
    read: (raw) => (raw && accepted.has(raw) ? (raw as SortValue<F>) : byDefault),
  };
}

/** `nombre_desc` → {field: 'nombre', direction: 'desc'}. */
export function splitSort<F extends string>(value: SortValue<F>): { field: F; direction: SortDirection } {
  const at = value.lastIndexOf('_');
  return { field: value.slice(0, at) as F, direction: value.slice(at + 1) as SortDirection };
}

/**
 * The sort after a click on a column's header: the same column flips its direction; another column starts
 * with `firstDirection` (ascending for names, descending for dates and amounts, newest or largest first).
 */
export function nextSort<F extends string>(
  current: SortValue<F>,
  field: F,
  firstDirection: SortDirection,
): SortValue<F> {
  const now = splitSort(current);
  if (now.field !== field) return `${field}_${firstDirection}`;
  return `${field}_${now.direction === 'asc' ? 'desc' : 'asc'}`;
}
