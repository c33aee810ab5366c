import type { ListSort, SortValue } from '@portal/shared/schemas/sort';
import { useCallback } from 'react';
import { useLocation, useSearchParams } from 'react-router';

/**
 * A list's filters kept in the URL query: `update({key: value})` sets each key, and null or '' removes it.
 * It replaces the history entry unless `{push: true}` (typing does not fill the back button); back, forward
 * and reload keep the filters.
 * Updates compose: react-router's functional `setSearchParams` hands the parameters the last render read, so
 * two updates before the next render (a client chosen, then a tab clicked at once) lost the first one's keys.
 * An update on the same page that finds the same parameters the previous one started from builds on what
 * that one wrote, until a render has read that write (or another page has rendered).
 */
let lastWrite: { path: string; from: string; to: string } | null = null;

export function useSearchParamsUpdate() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  if (lastWrite && (lastWrite.to === params.toString() || lastWrite.path !== pathname)) lastWrite = null;
  const update = useCallback(
    (changes: Record<string, string | null>, options: { push?: boolean } = {}) =>
      setParams(
        (prev) => {
          const from = prev.toString();
          const pending = lastWrite?.path === pathname && lastWrite.from === from ? lastWrite.to : null;
          const next = new URLSearchParams(pending ?? prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          lastWrite = { path: pathname, from, to: next.toString() };
          return next;
        },
        { replace: !options.push },
      ),
    [setParams, pathname],
  );
  return [params, update] as const;
}

/**
 * A list's sort kept in the URL's `orden` (decision 0067): the value (the default when absent or unknown)
 * and its setter, which goes back to page 1 (`pageKey`, 'page' on the administrator's lists) and leaves
 * the default out of the URL.
 */
export function useSortParam<F extends string>(sort: ListSort<F>, pageKey = 'page') {
  const [params, update] = useSearchParamsUpdate();
  const value = sort.read(params.get('orden'));
  const setSort = useCallback(
    (next: SortValue<F>) => update({ orden: next === sort.byDefault ? null : next, [pageKey]: null }),
    [update, sort, pageKey],
  );
  return [value, setSort] as const;
}
