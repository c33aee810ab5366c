import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/** How long a link's `#id` is looked for while its screen loads (lazy chunks, the first query). */
const HASH_WAIT_MS = 3000;

/**
 * A new screen opens at its top, or at the element its link names (`#id`), like a page load: a phone keeps
 * no scroll position from the screen before (issue 37, item 3). Only the path (and hash) counts: a filter
 * or a page of a list changes the query and keeps the place. Back and forward leave the place to the browser.
 */
export function ScrollOnNavigation() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is what the effect answers to.
  useEffect(() => {
    if (navigationType === 'POP') return;
    const id = decodeURIComponent(hash.slice(1));
    if (!id) {
      window.scrollTo({ top: 0, left: 0 });
      return;
    }
    const started = performance.now();
    let frame = 0;
    const look = () => {
      const element = document.getElementById(id);
      if (element) element.scrollIntoView({ block: 'start' });
      else if (performance.now() - started < HASH_WAIT_MS) frame = requestAnimationFrame(look);
    };
    look();
    return () => cancelAnimationFrame(frame);
  }, [pathname, hash, navigationType]);
  return null;
}
