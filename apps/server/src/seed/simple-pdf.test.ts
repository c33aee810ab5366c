import { describe, expect, it } from 'vitest';
import { simplePdf } from './simple-pdf.ts';

/** Checks the cross-reference table: every entry points at "<n> 0 obj" and startxref at "xref". */
function checkStructure(pdf: Buffer): { objects: number; pages: number } {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);

  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const header = /^xref\n0 (\d+)\n/.exec(text.slice(startxref));
  const size = Number(header?.[1]);
  const entriesStart = startxref + (header?.[0].length ?? 0);
  for (let n = 0; n < size; n++) {
    const entry = text.slice(entriesStart + n * 20, entriesStart + (n + 1) * 20);
    expect(entry).toMatch(/^\d{10} \d{5} [fn] \n$/);
    if (n === 0) continue;
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${n} 0 obj\n`.length)).toBe(`${n} 0 obj\n`);
  }
  expect(text).toContain(`/Size ${size} /Root 1 0 R`);

  // Each stream's /Length is its exact byte length.
  for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
  }
  const pages = Number(/\/Count (\d+)/.exec(text)?.[1]);
  return { objects: size - 1, pages };
}

describe('simplePdf', () => {
  it('writes a valid one-page PDF with Helvetica in WinAnsi encoding', () => {
    const pdf = simplePdf('Calendario de compras — Año 2026', ['¿Cómo comprar?', 'Ñandú (1) \\ fin']);
    const { pages } = checkStructure(pdf);
    expect(pages).toBe(1);
    const text = pdf.toString('latin1');
    expect(text).toContain('/BaseFont /Helvetica /Encoding /WinAnsiEncoding');
    // Accents as single WinAnsi bytes, the em dash as 0x97, parentheses and backslash escaped.
    expect(pdf.includes(Buffer.from('(\xbfC\xf3mo comprar?) Tj', 'latin1'))).toBe(true);
    expect(pdf.includes(Buffer.from('Calendario de compras \x97 A\xf1o 2026', 'latin1'))).toBe(true);
    expect(pdf.includes(Buffer.from('(\xd1and\xfa \\(1\\) \\\\ fin) Tj', 'latin1'))).toBe(true);
    // The title in the document information, as UTF-16BE.
    expect(text).toContain('/Title <FEFF');
  });

  it('adds pages and wraps long lines', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `Renglón ${i + 1}`);
    lines.push('palabra '.repeat(40).trim());
    const { pages, objects } = checkStructure(simplePdf('Largo', lines));
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(objects).toBe(5 + pages * 2);
  });

  it('replaces characters outside Windows-1252', () => {
    const pdf = simplePdf('Emoji', ['Hola 😀 ✓']);
    checkStructure(pdf);
    expect(pdf.includes(Buffer.from('(Hola ? ?) Tj', 'latin1'))).toBe(true);
  });
});
