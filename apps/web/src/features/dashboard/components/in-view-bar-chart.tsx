/**
 * A bar chart that loads its library (@mantine/charts and recharts, the biggest chunk of the app) only when
 * it comes near the screen, and draws it as a transition so a click or a keystroke is never kept waiting
 * (decision 0095). Until then its place is held at the chart's height: nothing below it moves.
 */
import type { BarChartProps } from '@mantine/charts';
import { Box, Skeleton } from '@mantine/core';
import { lazy, Suspense, startTransition, useEffect, useRef, useState } from 'react';

const LazyBarChart = lazy(() => import('./bar-chart').then((m) => ({ default: m.BarChart })));

/** How far below the screen a chart starts loading (a scroll's worth, so it is drawn when seen). */
const AHEAD = '300px';

type Props = BarChartProps & { h: number; 'data-testid'?: string };

export function BarChart({ h, 'data-testid': testId, ...props }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      startTransition(() => setNear(true));
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          startTransition(() => setNear(true));
        }
      },
      { rootMargin: `${AHEAD} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const placeholder = <Skeleton h={h} radius="md" aria-hidden />;
  return (
    <Box ref={ref} mih={h} data-testid={testId}>
      {near ? (
        <Suspense fallback={placeholder}>
          <LazyBarChart h={h} {...props} />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
}
