/**
 * The demo pictures: product images and client logos drawn as SVG shapes (no text, so no fonts are
 * needed) and rendered to PNG.
 */
import sharp from 'sharp';
import type { DemoClient } from './data.ts';

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Mixes a colour with another (t = 0 keeps `a`, 1 gives `b`). */
function mix(a: string, b: string, t: number): string {
  const ca = hexToRgb(a);
  const cb = hexToRgb(b);
  const out = ca.map((v, i) => Math.round(v + ((cb[i] ?? 0) - v) * t));
  return `#${out.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A small deterministic generator, so a product always gets the same picture. */
function prng(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

function polygon(sides: number, radius: number, innerRadius?: number): string {
  const count = innerRadius ? sides * 2 : sides;
  const pts: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = innerRadius && i % 2 === 1 ? innerRadius : radius;
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / count;
    pts.push(`${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/** One of ten simple glyphs, centred on the origin. */
function glyph(kind: number, accent: string): string {
  const fill = 'fill="#ffffff" fill-opacity="0.94"';
  switch (kind % 10) {
    case 0:
      return `<circle r="105" ${fill}/><circle r="45" fill="${accent}" fill-opacity="0.55"/>`;
    case 1:
      return `<rect x="-100" y="-100" width="200" height="200" rx="30" ${fill}/><rect x="-40" y="-40" width="80" height="80" rx="12" fill="${accent}" fill-opacity="0.5"/>`;
    case 2:
      return `<polygon points="${polygon(3, 125)}" ${fill}/>`;
    case 3:
      return `<polygon points="${polygon(6, 115)}" ${fill}/><polygon points="${polygon(6, 55)}" fill="${accent}" fill-opacity="0.5"/>`;
    case 4:
      return `<polygon points="${polygon(4, 125)}" ${fill}/>`;
    case 5:
      return `<polygon points="${polygon(5, 130, 55)}" ${fill}/>`;
    case 6:
      return `<circle r="95" fill="none" stroke="#ffffff" stroke-opacity="0.94" stroke-width="42"/>`;
    case 7:
      return `<rect x="-110" y="-20" width="60" height="120" rx="10" ${fill}/><rect x="-30" y="-80" width="60" height="180" rx="10" ${fill}/><rect x="50" y="-50" width="60" height="150" rx="10" ${fill}/>`;
    case 8:
      return `<path d="M-35 -115 H35 V-35 H115 V35 H35 V115 H-35 V35 H-115 V-35 H-35 Z" ${fill}/>`;
    default:
      return `<rect x="-125" y="-55" width="250" height="110" rx="55" ${fill}/><rect x="0" y="-55" width="125" height="110" rx="0" fill="${accent}" fill-opacity="0.35"/>`;
  }
}

export function productSvg(color: string, index: number, seed: string): string {
  const rnd = prng(seed);
  const light = mix(color, '#ffffff', 0.45);
  const dark = mix(color, '#000000', 0.25);
  const bubbles = Array.from({ length: 4 }, () => {
    const cx = Math.round(rnd() * 480);
    const cy = Math.round(rnd() * 480);
    const r = Math.round(40 + rnd() * 110);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffffff" fill-opacity="${(0.05 + rnd() * 0.08).toFixed(2)}"/>`;
  }).join('');
  const rotation = Math.round(rnd() * 40 - 20);
  const scale = (0.85 + rnd() * 0.2).toFixed(2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#bg)"/>${bubbles}
<ellipse cx="240" cy="392" rx="130" ry="18" fill="#000000" fill-opacity="0.12"/>
<g transform="translate(240 232) rotate(${rotation}) scale(${scale})">${glyph(index, dark)}</g>
</svg>`;
}

export function logoSvg(client: Pick<DemoClient, 'color' | 'color2' | 'logo'>): string {
  const { color, color2 } = client;
  let mark: string;
  if (client.logo === 'gear') {
    const teeth = Array.from(
      { length: 8 },
      (_, i) => `<rect x="-18" y="-98" width="36" height="40" rx="6" transform="rotate(${i * 45})"/>`,
    ).join('');
    mark = `<g fill="#ffffff">${teeth}<circle r="72"/></g><circle r="30" fill="${color}"/>`;
  } else {
    mark = `<g fill="#ffffff"><rect x="-80" y="-80" width="72" height="72" rx="14"/><rect x="8" y="-80" width="72" height="72" rx="14" fill-opacity="0.75"/><rect x="-80" y="8" width="72" height="72" rx="14" fill-opacity="0.75"/><rect x="8" y="8" width="72" height="72" rx="14" fill-opacity="0.5"/></g>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 320 320">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color2}"/></linearGradient></defs>
<rect x="8" y="8" width="304" height="304" rx="64" fill="url(#g)"/>
<g transform="translate(160 160)">${mark}</g>
</svg>`;
}

export async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------
