import { Skeleton } from '@mantine/core';

/**
 * The height the chart's card takes (its title, links and 190 px chart, a little more on a phone, where the
 * links wrap): the placeholder while it loads takes the same, so the history below does not move when the
 * chart arrives (layout shift, issue 37).
 */
export const SPEND_CARD_HEIGHT = 320;

/** What stands in for the chart while its code (a lazy chunk with the charts) or its data load. */
export function SpendHistoryPlaceholder() {
  return (
    <Skeleton
      h={SPEND_CARD_HEIGHT}
      radius="lg"
      mb="lg"
      role="status"
      aria-busy
      aria-label="Cargando tu gasto"
    />
  );
}
