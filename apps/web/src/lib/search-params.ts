import type { ListSort, SortValue } from '@portal/shared/schemas/sort';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's filters kept in the URL query: `update({key: value})` sets each key, and null or '' removes it.
 * It replaces the history entry unless `{push: true}` (typing does not fill the back button); back, forward
 * and reload keep the filters.
 */
export function useSearchParamsUpdate() {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (changes: Record<string, string | null>, options: { push?: boolean } = {}) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: !options.push },
      ),
    [setParams],
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
