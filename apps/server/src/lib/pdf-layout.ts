import PDFDocument from 'pdfkit';

/**
 * The layout the portal's PDFs share (the purchase order, the pick list): Letter size, standard Helvetica
 * (WinAnsi covers á, é, ñ, ¿, ¡), tables whose header repeats on every page they continue on, and
 * "… · Página n de m" in the bottom margin.
 */
export const MARGIN = 40;
const FOOTER = 30;
const CELL_PAD = 3;
const TABLE_SIZE = 8;

/** Where the next section writes: the document, its text column and the height written so far. */
export interface Cursor {
  doc: PDFKit.PDFDocument;
  left: number;
  width: number;
  y: number;
}

/** A table column: title, width in points, alignment. */
export interface PdfColumn {
  title: string;
  width: number;
  align: 'left' | 'right';
}

/** A new Letter document with its pages buffered (for numbering), and a cursor at its top. */
export function newDocument(info: { Title: string; Author?: string }): Cursor {
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, bufferPages: true, info });
  return { doc, left: MARGIN, width: doc.page.width - 2 * MARGIN, y: MARGIN };
}

/** The lowest a section may write before the footer. */
const bottomOf = (c: Cursor) => c.doc.page.height - MARGIN - FOOTER;

/** A new page when `height` more would reach the footer. */
export function room(c: Cursor, height: number): void {
  if (c.y + height > bottomOf(c)) {
    c.doc.addPage();
    c.y = MARGIN;
  }
}

export function rule(c: Cursor, lineWidth: number, color: string): void {
  c.doc
    .moveTo(c.left, c.y)
    .lineTo(c.left + c.width, c.y)
    .lineWidth(lineWidth)
    .strokeColor(color)
    .stroke();
}

/** A table of text cells; its header repeats on every page it continues on. */
export function drawTable(
  c: Cursor,
  columns: readonly PdfColumn[],
  rows: readonly (readonly string[])[],
): void {
  const { doc } = c;
  const drawRow = (cells: readonly string[], bold: boolean, shade: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    const height =
      Math.max(
        ...cells.map((t, i) => doc.heightOfString(t, { width: (columns[i]?.width ?? 50) - 2 * CELL_PAD })),
      ) +
      2 * CELL_PAD;
    if (c.y + height > bottomOf(c)) {
      doc.addPage();
      c.y = MARGIN;
      if (!bold) drawHeader();
      // The repeated header leaves its bold font behind.
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    }
    if (shade) doc.rect(c.left, c.y, c.width, height).fillColor('#f1f3f5').fill();
    doc.fillColor('black');
    let x = c.left;
    cells.forEach((t, i) => {
      const col = columns[i]!;
      doc.text(t, x + CELL_PAD, c.y + CELL_PAD, { width: col.width - 2 * CELL_PAD, align: col.align });
      x += col.width;
    });
    c.y += height;
  };
  const drawHeader = () => {
    drawRow(
      columns.map((col) => col.title),
      true,
      true,
    );
    rule(c, 0.5, '#868e96');
  };
  drawHeader();
  for (const row of rows) drawRow(row, false, false);
  rule(c, 0.5, '#868e96');
  c.y += 6;
}

/** "<label> · Página n de m" in the bottom margin of each buffered page. */
export function numberPages(c: Cursor, label: string): void {
  const { doc } = c;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#495057')
      .text(
        `${label} · Página ${i - range.start + 1} de ${range.count}`,
        c.left,
        doc.page.height - MARGIN - 10,
        {
          width: c.width,
          align: 'center',
          lineBreak: false,
        },
      );
    doc.page.margins.bottom = margins;
  }
}

/** The whole PDF in memory (an e-mail attachment, a download of known length). */
export async function pdfBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
