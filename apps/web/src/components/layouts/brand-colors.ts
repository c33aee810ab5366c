/** The sidebar gradient from a client's two colours, with a text colour that stays readable on it. */

const NEUTRAL: [string, string] = ['#22307a', '#3b5bdb'];

function parseHex(value: string): [number, number, number] | null {
  const hex = value.trim().replace(/^#/, '');
  if (!/^([0-9a-f]{3}|[0-9a-f]{6})$/i.test(hex)) return null;
  const full =
    hex.length === 3
      ? hex
          .split('')
          .map((c) => c + c)
          .join('')
      : hex;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export interface SidebarPalette {
  background: string;
  /** 'light' text on a dark gradient, 'dark' text on a light one. */
  tone: 'light' | 'dark';
}

export function sidebarPalette(
  color: string | null | undefined,
  color2: string | null | undefined,
): SidebarPalette {
  const a = color ? parseHex(color) : null;
  const b = color2 ? parseHex(color2) : null;
  const [from, to] =
    a && b ? [color as string, color2 as string] : a ? [color as string, color as string] : NEUTRAL;
  const rgbs = [parseHex(from), parseHex(to)].filter((x): x is [number, number, number] => x !== null);
  const avg = rgbs.reduce((sum, rgb) => sum + luminance(rgb), 0) / Math.max(rgbs.length, 1);
  // Light text on dark gradients; on a light pair (say yellow and white) the text turns dark instead.
  return {
    background: `linear-gradient(165deg, ${from} 0%, ${to} 100%)`,
    tone: avg > 0.42 ? 'dark' : 'light',
  };
}
