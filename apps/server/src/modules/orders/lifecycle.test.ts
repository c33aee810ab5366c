/**
 * The order's lifecycle seam holds (decision 0107): every place in the server that writes an order or its
 * lines is listed here with why it may, and everything that must follow an order change (the running totals,
 * the integration event, the budget alerts) is called from the seam alone. A new writer that bypasses
 * `orderChanged` fails this test; the fix is to describe the change to the seam, not to add a line below.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSourceIfPresent } from '../../test/source-tree.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The server's source files (tests and test helpers aside), relative to apps/server/src. */
function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(SRC, 'test')) out.push(...sourceFiles(full));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      out.push(path.relative(SRC, full).split(path.sep).join('/'));
    }
  }
  return out;
}

/** A file's text; another test's probe, gone since the listing, reads as empty (test/source-tree.ts). */
const read = (file: string) => readSourceIfPresent(path.join(SRC, file));

/** A statement that writes `orders` or `order_lines`: through Drizzle's builder, or in SQL text. */
const ORDER_WRITE =
  /\.(?:update|insert|delete)\(\s*(?:orders|orderLines)\s*\)|(?:update|insert\s+into|delete\s+from)\s+(?:\$\{(?:orders|orderLines)\}|orders\b|order_lines\b)/gi;

/** Every place allowed to write an order, and why. */
const ALLOWED: Record<string, { count: number; why: string }> = {
  'modules/orders/order-writes.ts': {
    count: 15,
    why: "the statements of the seam: line edits (2), cancellation, return to level 1, fulfilment move, approval, the lines' stock reservations and their release (decision 0124); a shipment's lines, a line's release, a line's cancellation, the order's totals after it and the promised dates (decision 0125); a credit hold and its release (decision 0134)",
  },
  'modules/orders/claim-writes.ts': {
    count: 3,
    why: "the seam's statements of claims (decision 0127): a claim's units under claim, a refused or replaced claim's units released, a credit's units out of `cantidad` and `enviado`",
  },
  'modules/shopping/purchase.repository.ts': {
    count: 2,
    why: "the purchase's one statement (the order and its lines), run as the seam's `write` with the seam's totals and e-mails",
  },
  'modules/fulfilment/fulfilment.service.ts': {
    count: 1,
    why: "the export's stamp (exported at, by, batch): no status, fulfilment, line or amount",
  },
};

function writesIn(file: string): RegExpMatchArray[] {
  return [...read(file).matchAll(ORDER_WRITE)];
}

describe("the order's lifecycle seam", () => {
  const files = sourceFiles();

  it('finds the writes it guards (the scan itself works)', () => {
    expect(files).toContain('modules/orders/lifecycle.ts');
    expect(writesIn('modules/orders/order-writes.ts').length).toBeGreaterThan(0);
    // A write the scan must recognise, in each of its three spellings.
    for (const sample of [
      'await tx.update(orders).set({ status })',
      'sql`update \u0024{orders} set status = 1`',
      'sql`delete from order_lines where id = 1`',
    ])
      expect(sample.match(ORDER_WRITE), sample).not.toBeNull();
  });

  it('writes orders and their lines only in the listed places', () => {
    const found = Object.fromEntries(
      files.map((f) => [f, writesIn(f).length] as const).filter(([, n]) => n > 0),
    );
    expect(found).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([f, a]) => [f, a.count])));
  });

  it("runs the seam's statements from the seam alone", () => {
    for (const statements of ['order-writes', 'claim-writes']) {
      const importers = files.filter((f) =>
        new RegExp(`from '\\.{1,2}\\/(?:\\.\\.\\/orders\\/)?${statements}\\.ts'`).test(read(f)),
      );
      expect(importers, statements).toEqual(['modules/orders/lifecycle.ts']);
    }
  });

  it("makes the purchase's statement take its totals from the seam and run inside it", () => {
    const repository = read('modules/shopping/purchase.repository.ts');
    expect(repository).toContain('\u0024{PLACED_TOTALS}');
    expect(repository).not.toMatch(/moveCtes|moveOrderTotals/);
    const importers = files.filter((f) => /\binsertPurchase\(/.test(read(f)));
    expect(importers.sort()).toEqual([
      'modules/shopping/purchase.repository.ts',
      'modules/shopping/purchase.service.ts',
    ]);
    const service = read('modules/shopping/purchase.service.ts');
    const seam = service.indexOf('orderChanged(');
    const write = service.indexOf('write: async');
    expect(seam).toBeGreaterThan(0);
    expect(write).toBeGreaterThan(seam);
    expect(service.indexOf('insertPurchase(')).toBeGreaterThan(write);
  });

  it("keeps the export's stamp off the order's status, fulfilment and amounts", () => {
    const text = read('modules/fulfilment/fulfilment.service.ts');
    const [write] = writesIn('modules/fulfilment/fulfilment.service.ts');
    const set = text.slice(write!.index, text.indexOf('.where(', write!.index));
    expect(set).toMatch(/exportadoAt/);
    expect(set).not.toMatch(/status|surtido|total|cantidad|guia|nota/i);
  });

  it('moves the totals, records integration events and checks budget alerts only in the seam', () => {
    const callers = (fn: string) =>
      files.filter((f) =>
        new RegExp(`\\b${fn}\\(`).test(read(f).replace(/export async function \w+\(/g, '')),
      );
    expect(callers('moveOrderTotals')).toEqual(['modules/orders/lifecycle.ts']);
    expect(callers('recordWebhookEvent')).toEqual(['modules/orders/lifecycle.ts']);
    expect(callers('sendBudgetAlerts')).toEqual(['modules/orders/lifecycle.ts']);
  });
});
