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
