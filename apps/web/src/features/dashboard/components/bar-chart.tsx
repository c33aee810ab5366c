/**
 * The dashboards' bar chart, drawn by React in SVG (decision 0142): columns by month or day (stacked by
 * status, or one series), or bars by category against a budget. The chart library it replaces drew each
 * chart in a cascade of renders of about 150 ms on a desktop and 600 ms on a throttled phone, one long task
 * per chart; this draws one in a few milliseconds, in the page's own render. The figures stay readable
 * without it: every chart card has "Ver como tabla".
 */
import { Box, getThemeColor, useMantineTheme } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { niceTicks } from '../lib/dashboard-data';

export interface BarSeries {
  /** The row's key holding this series' value. */
  name: string;
  label: string;
  /** A theme colour ('indigo.6'). */
  color: string;
}

interface Props {
  /** The chart's name for assistive technology (its card's title). */
  label: string;
  h: number;
  data: Record<string, unknown>[];
  /** The row's key holding the category's name (a month, a day, a category); one row per name. */
  dataKey: string;
  series: BarSeries[];
  /** The series one on top of the other (columns only). */
  stacked?: boolean;
  /** Bars growing to the right, one row per category, instead of columns. */
  horizontal?: boolean;
  withLegend?: boolean;
  /** A value in the figures shown on hover or tap. */
  valueFormatter: (value: number) => string;
  /** A value on the axis (defaults to valueFormatter). */
  tickFormatter?: (value: number) => string;
  /** Whole steps only on the value axis (counts). */
  integers?: boolean;
  /** Room for the axis beside the plot: the values' ticks (columns) or the categories' names (bars). */
  axisWidth: number;
  maxBarWidth?: number;
  /** A bar's own colour by its value (over the budget in red). */
  barColor?: (value: number) => string;
  /** A dashed line across the columns at a value, its label above it on the left; the axis reaches above it. */
  reference?: { value: number; label: string; color: string };
  'data-testid'?: string;
}

const FONT = 12;
/** An estimate of a label's width at 12 px (the axis labels are short: "Ene 2026", "05/11", a name). */
const CHAR = 6.8;
const textWidth = (text: string) => text.length * CHAR;
const TOP = 10;
const RIGHT = 12;
const AXIS = 26;
const LEGEND = 30;

/** Even steps above the highest value (whole ones for counts), from 0. */
function valueTicks(max: number, integers: boolean): number[] {
  const ticks = niceTicks(max);
  if (!integers) return ticks;
  const step = Math.max(1, Math.ceil(ticks[1] ?? 1));
  return [0, step, 2 * step, 3 * step, 4 * step];
}

/** The width of the box, read before the first paint and on every resize. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined) setWidth(w);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

const numberOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Where everything of one chart falls, in pixels of its SVG. */
interface Layout {
  horizontal: boolean;
  left: number;
  plotWidth: number;
  plotHeight: number;
  /** A category's share of the category axis. */
  band: number;
  ticks: number[];
  /** Pixels along the value axis from its start. */
  along: (value: number) => number;
  /** A category's rectangle across the plot (for the hover band). */
  bandRect: (i: number) => { x: number; y: number; width: number; height: number };
}

function layoutOf(props: Props, width: number, svgHeight: number, values: number[][]): Layout {
  const { horizontal = false, stacked = false, integers = false, reference, axisWidth } = props;
  const highest = Math.max(
    0,
    reference?.value ?? 0,
    ...values.map((v) => (stacked ? v.reduce((a, b) => a + b, 0) : Math.max(0, ...v))),
  );
  const ticks = valueTicks(highest, integers);
  const top = Math.max(ticks[ticks.length - 1] ?? 1, 1e-9);
  const plotHeight = svgHeight - TOP - AXIS;
  // Bars leave room on the right for half of their last tick's label.
  const plotWidth = Math.max(0, width - axisWidth - (horizontal ? 2 * RIGHT : RIGHT));
  const band = (horizontal ? plotHeight : plotWidth) / Math.max(1, values.length);
  return {
    horizontal,
    left: axisWidth,
    plotWidth,
    plotHeight,
    band,
    ticks,
    along: (v) => (Math.max(0, v) / top) * (horizontal ? plotWidth : plotHeight),
    bandRect: (i) =>
      horizontal
        ? { x: axisWidth, y: TOP + i * band, width: plotWidth, height: band }
        : { x: axisWidth + i * band, y: TOP, width: band, height: plotHeight },
  };
}

/** The value axis: a dashed grid line and a label at each tick. */
function ValueAxis({
  layout,
  format,
  color,
}: {
  layout: Layout;
  format: (v: number) => string;
  color: (c: string) => string;
}) {
  const { horizontal, left, plotWidth, plotHeight, along } = layout;
  return layout.ticks.map((t) => {
    const at = along(t);
    const line = horizontal
      ? { x1: left + at, x2: left + at, y1: TOP, y2: TOP + plotHeight }
      : { x1: left, x2: left + plotWidth, y1: TOP + plotHeight - at, y2: TOP + plotHeight - at };
    const text = horizontal
      ? { x: left + at, y: TOP + plotHeight + 18, textAnchor: 'middle' as const }
      : { x: left - 8, y: TOP + plotHeight - at + 4, textAnchor: 'end' as const };
    return (
      <g key={t}>
        <line {...line} stroke={color('gray.3')} strokeDasharray="5 5" />
        <text {...text} fill={color('gray.7')}>
          {format(t)}
        </text>
      </g>
    );
  });
}

/** The categories' names: under the columns (every k-th when they do not fit, the first and last always), or beside the bars (cut with "…" past the axis' room). */
function CategoryAxis({
  layout,
  categories,
  color,
}: {
  layout: Layout;
  categories: string[];
  color: (c: string) => string;
}) {
  const { horizontal, left, plotHeight, band } = layout;
  const n = categories.length;
  const widest = Math.max(0, ...categories.map(textWidth)) + 10;
  const every = horizontal ? 1 : Math.max(1, Math.ceil(widest / Math.max(band, 1)));
  const shown = (i: number) =>
    every === 1 || i === 0 || i === n - 1 || (i % every === 0 && n - 1 - i >= every);
  const clip = (text: string) => {
    const room = left - 10;
    return textWidth(text) <= room ? text : `${text.slice(0, Math.max(1, Math.floor(room / CHAR) - 1))}…`;
  };
  return categories.map((c, i) =>
    !shown(i) ? null : horizontal ? (
      <text key={c} x={left - 8} y={TOP + (i + 0.5) * band + 4} textAnchor="end" fill={color('gray.7')}>
        <title>{c}</title>
        {clip(c)}
      </text>
    ) : (
      <text
        key={c}
        x={left + (i + 0.5) * band}
        y={TOP + plotHeight + 18}
        textAnchor="middle"
        fill={color('gray.7')}
      >
        {c}
      </text>
    ),
  );
}

/** One category's figures, beside its column or under its bar, while the pointer is on it (or after a tap). */
function Figures({
  layout,
  active,
  width,
  category,
  series,
  values,
  format,
  color,
}: {
  layout: Layout;
  active: number;
  width: number;
  category: string;
  series: BarSeries[];
  values: number[];
  format: (v: number) => string;
  color: (c: string) => string;
}) {
  const { horizontal, left, band, plotWidth, plotHeight } = layout;
  // A bar's figures open below it where the chart has room for them (a title line and a line a series), else
  // above it, so the last rows' box is not cut by the card's edge.
  const below = TOP + (active + 1) * band + 26 + 18 * series.length <= TOP + plotHeight + AXIS;
  const place = horizontal
    ? {
        left: Math.max(0, Math.min(left, width - 200)),
        ...(below || active === 0
          ? { top: TOP + (active + 1) * band }
          : { top: TOP + active * band, transform: 'translateY(-100%)' }),
      }
    : (active + 0.5) * band < plotWidth / 2
      ? { top: TOP, left: left + (active + 1) * band + 4 }
      : { top: TOP, right: width - left - active * band + 4 };
  return (
    <Box
      aria-hidden
      pos="absolute"
      data-testid="grafica-detalle"
      style={{
        ...place,
        pointerEvents: 'none',
        background: 'var(--mantine-color-body)',
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 'var(--mantine-radius-sm)',
        boxShadow: 'var(--mantine-shadow-sm)',
        padding: '6px 10px',
        fontSize: FONT,
        whiteSpace: 'nowrap',
        zIndex: 1,
      }}
    >
      <div style={{ fontWeight: 600, marginBottom: 2 }}>{category}</div>
      {series.map((s, j) => (
        <div key={s.name} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span style={{ width: 8, height: 8, borderRadius: 4, background: color(s.color), flex: 'none' }} />
          <span>{s.label}</span>
          <span style={{ marginLeft: 'auto', paddingLeft: 12, fontVariantNumeric: 'tabular-nums' }}>
            {format(values[j] ?? 0)}
          </span>
        </div>
      ))}
    </Box>
  );
}

function Legend({
  series,
  left,
  color,
}: {
  series: BarSeries[];
  left: number;
  color: (c: string) => string;
}) {
  return (
    <Box
      mih={LEGEND}
      pt={6}
      pl={left}
      pr={RIGHT}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        columnGap: 16,
        rowGap: 2,
        fontSize: 13,
      }}
    >
      {series.map((s) => (
        <span key={s.name} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, background: color(s.color) }} />
          {s.label}
        </span>
      ))}
    </Box>
  );
}

export function BarChart(props: Props) {
  const { label, h, data, dataKey, series, stacked = false, withLegend = false, valueFormatter } = props;
  const { maxBarWidth = 48, barColor, reference, 'data-testid': testId } = props;
  const theme = useMantineTheme();
  const color = (c: string) => getThemeColor(c, theme);
  const { ref, width } = useWidth();
  const [active, setActive] = useState<number | null>(null);

  const values = data.map((row) => series.map((s) => numberOf(row[s.name])));
  const categories = data.map((row) => String(row[dataKey] ?? ''));
  // The legend, when there is one, takes its room under the plot (and may wrap on a phone).
  const svgHeight = h - (withLegend ? LEGEND : 0);
  const layout = layoutOf(props, width, svgHeight, values);
  const { horizontal, left, plotHeight, band, along } = layout;
  const group = Math.min(band * 0.8, (stacked ? 1 : series.length) * maxBarWidth);
  const thickness = stacked ? group : group / Math.max(1, series.length);

  const bars: ReactNode[] = [];
  values.forEach((row, i) => {
    const start = i * band + (band - group) / 2;
    let base = 0;
    row.forEach((value, s) => {
      const size = along(value);
      const offset = stacked ? base : 0;
      const across = stacked ? start : start + s * thickness;
      base += size;
      const one = series[s];
      if (size <= 0 || !one) return;
      bars.push(
        <rect
          key={`${categories[i]}:${one.name}`}
          data-barra={one.name}
          fill={color(barColor?.(value) ?? one.color)}
          {...(horizontal
            ? { x: left + offset, y: TOP + across, width: size, height: thickness }
            : { x: left + across, y: TOP + plotHeight - offset - size, width: thickness, height: size })}
        />,
      );
    });
  });
  const referenceAt =
    reference && reference.value > 0 && !horizontal ? TOP + plotHeight - along(reference.value) : null;

  return (
    <Box pos="relative" data-testid={testId}>
      <Box
        ref={ref}
        h={svgHeight}
        // A tap shows a category's figures until another is tapped; a mouse leaving the chart hides them.
        onPointerLeave={(e) => {
          if (e.pointerType !== 'touch') setActive(null);
        }}
      >
        {width > 0 ? (
          <svg width={width} height={svgHeight} role="img" aria-label={`Gráfica: ${label}`} fontSize={FONT}>
            <ValueAxis layout={layout} format={props.tickFormatter ?? valueFormatter} color={color} />
            {active !== null ? <rect fill={color('gray.1')} {...layout.bandRect(active)} /> : null}
            {bars}
            <CategoryAxis layout={layout} categories={categories} color={color} />
            {reference && referenceAt !== null ? (
              <g>
                <line
                  x1={left}
                  x2={left + layout.plotWidth}
                  y1={referenceAt}
                  y2={referenceAt}
                  stroke={color(reference.color)}
                  strokeDasharray="6 4"
                  strokeWidth={1.5}
                />
                <text x={left + 6} y={referenceAt - 5} fill={color(reference.color)} fontSize={11}>
                  {reference.label}
                </text>
              </g>
            ) : null}
            {categories.map((c, i) => (
              <rect
                key={c}
                fill="transparent"
                onPointerEnter={() => setActive(i)}
                onPointerDown={() => setActive(i)}
                {...layout.bandRect(i)}
              />
            ))}
          </svg>
        ) : null}
      </Box>
      {withLegend ? <Legend series={series} left={left} color={color} /> : null}
      {active !== null && width > 0 ? (
        <Figures
          layout={layout}
          active={active}
          width={width}
          category={categories[active] ?? ''}
          series={series}
          values={values[active] ?? []}
          format={valueFormatter}
          color={color}
        />
      ) : null}
    </Box>
  );
}
