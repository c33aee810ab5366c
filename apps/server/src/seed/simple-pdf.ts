/**
 * A tiny PDF writer for plain documents (title + lines of text), enough for the demo calendar and
 * manual. Uses the standard Helvetica fonts with WinAnsiEncoding, so Spanish accents, ñ, ¿ and ¡ print;
 * characters outside Windows-1252 become '?'. Long lines wrap; pages are added as needed (US Letter).
 */

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const TITLE_SIZE = 18;
const BODY_SIZE = 11;
const LEADING = 15;
/** Characters per line at 11 pt Helvetica in a 468 pt column (average glyph ~0.5 em). */
const WRAP_AT = 84;

/** Windows-1252 bytes 0x80-0x9F that differ from Latin-1. */
const CP1252_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** Text as WinAnsi bytes inside a PDF literal string, escaped. */
function pdfString(text: string): Buffer {
  const bytes: number[] = [0x28]; // (
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0x3f;
    let byte: number;
    if (code === 0x28 || code === 0x29 || code === 0x5c) {
      bytes.push(0x5c);
      byte = code;
    } else if (code >= 0x20 && code <= 0x7e) {
      byte = code;
    } else if (code >= 0xa0 && code <= 0xff) {
      byte = code;
    } else {
      byte = CP1252_EXTRA[ch] ?? 0x3f;
    }
    bytes.push(byte);
  }
  bytes.push(0x29); // )
  return Buffer.from(bytes);
}

/** A PDF text string in UTF-16BE with BOM (document information dictionary). */
function pdfUnicodeHex(text: string): string {
  const be = Buffer.from(text, 'utf16le').swap16();
  return `<FEFF${be.toString('hex').toUpperCase()}>`;
}

function wrap(line: string): string[] {
  if (line.length <= WRAP_AT) return [line];
  const out: string[] = [];
  let current = '';
  for (const word of line.split(/\s+/)) {
    if (!current) {
      current = word;
    } else if (current.length + 1 + word.length <= WRAP_AT) {
      current += ` ${word}`;
    } else {
      out.push(current);
      current = `  ${word}`;
    }
  }
  if (current) out.push(current);
  return out;
}

function contentStream(title: string | null, lines: string[]): Buffer {
  const parts: Buffer[] = [];
  const raw = (s: string) => parts.push(Buffer.from(s, 'latin1'));
  let y = PAGE_HEIGHT - MARGIN;
  if (title !== null) {
    raw(`BT /F2 ${TITLE_SIZE} Tf ${MARGIN} ${y} Td `);
    parts.push(pdfString(title));
    raw(' Tj ET\n');
    // A rule under the title.
    raw(`0.6 w ${MARGIN} ${y - 10} m ${PAGE_WIDTH - MARGIN} ${y - 10} l S\n`);
    y -= TITLE_SIZE + 20;
  }
  for (const line of lines) {
    raw(`BT /F1 ${BODY_SIZE} Tf ${MARGIN} ${y} Td `);
    parts.push(pdfString(line));
    raw(' Tj ET\n');
    y -= LEADING;
  }
  return Buffer.concat(parts);
}

/** A valid PDF (1.4) with a bold title on the first page and the lines below it. */
export function simplePdf(title: string, lines: string[]): Buffer {
  const wrapped = lines.flatMap(wrap);
  const firstPageLines = Math.floor((PAGE_HEIGHT - 2 * MARGIN - TITLE_SIZE - 20) / LEADING) + 1;
  const otherPageLines = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / LEADING) + 1;
  const pages: string[][] = [wrapped.slice(0, firstPageLines)];
  for (let i = firstPageLines; i < wrapped.length; i += otherPageLines) {
    pages.push(wrapped.slice(i, i + otherPageLines));
  }

  // Object numbers: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info, then page + content pairs.
  const pageObj = (i: number) => 6 + i * 2;
  const objects: Buffer[] = [];
  const kids = pages.map((_, i) => `${pageObj(i)} 0 R`).join(' ');
  objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'));
  objects.push(Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`, 'latin1'));
  objects.push(
    Buffer.from(
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      'latin1',
    ),
  );
  objects.push(
    Buffer.from(
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
      'latin1',
    ),
  );
  objects.push(Buffer.from(`<< /Title ${pdfUnicodeHex(title)} /Producer (Portal de Compras) >>`, 'latin1'));
  pages.forEach((pageLines, i) => {
    const stream = contentStream(i === 0 ? title : null, pageLines);
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
          `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObj(i) + 1} 0 R >>`,
        'latin1',
      ),
    );
    objects.push(
      Buffer.concat([
        Buffer.from(`<< /Length ${stream.length} >>\nstream\n`, 'latin1'),
        stream,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  });

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(offset);
    chunks.push(chunk);
    offset += chunk.length;
  });

  // Each xref entry is exactly 20 bytes ("nnnnnnnnnn ggggg n\r\n" style, here with " \n").
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n'];
  for (const o of offsets) xref.push(`${String(o).padStart(10, '0')} 00000 n \n`);
  xref.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\n`);
  xref.push(`startxref\n${offset}\n%%EOF\n`);
  chunks.push(Buffer.from(xref.join(''), 'latin1'));
  return Buffer.concat(chunks);
}
