/**
 * j/k on the orders list (decision 0048): the focus moves to the next or previous order's "Ver" link (the
 * ones marked `data-orden-link` that are on screen: the table's or the phone cards'), and Enter opens it.
 * Mantine's hotkeys ignore keys typed in inputs, so the search box keeps its j and k.
 */
import { useHotkeys } from '@mantine/hooks';

function move(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLElement>('[data-orden-link]')].filter(
    (el) => el.offsetParent !== null,
  );
  if (links.length === 0) return;
  const at = links.indexOf(document.activeElement as HTMLElement);
  const next =
    at === -1 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step));
  const target = links[next];
  target?.focus();
  target?.scrollIntoView({ block: 'nearest' });
}

export function useListKeys() {
  useHotkeys([
    ['j', () => move(1)],
    ['k', () => move(-1)],
  ]);
}
