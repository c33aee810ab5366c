import { describe, expect, it } from 'vitest';
import { approvedAtPurchase, listItemsOf, noteForPurchase } from './order-extras';

describe('noteForPurchase', () => {
  it('trims the note and leaves out an empty one', () => {
    expect(noteForPurchase('  Entregar en almacén 2 \n')).toBe('Entregar en almacén 2');
    expect(noteForPurchase('   \n ')).toBeUndefined();
    expect(noteForPurchase('')).toBeUndefined();
  });

  it('keeps line breaks inside the note', () => {
    expect(noteForPurchase('Uno\nDos')).toBe('Uno\nDos');
  });
});

describe('listItemsOf', () => {
  it('keeps each product once, adding up its quantities, in the order of first appearance', () => {
    expect(
      listItemsOf([
        { id: 5, cantidad: 2 },
        { id: 3, cantidad: 1 },
        { id: 5, cantidad: 4 },
      ]),
    ).toEqual([
      { id: 5, cantidad: 6 },
      { id: 3, cantidad: 1 },
    ]);
  });

  it('leaves out lines without units', () => {
    expect(listItemsOf([{ id: 1, cantidad: 0 }])).toEqual([]);
  });
});

describe('approvedAtPurchase', () => {
  it('says a purchase is approved at once with no levels or up to the automatic amount', () => {
    const rules = (cantidad_autorizadores: number, aprobacion_automatica_hasta: number | null) => ({
      cantidad_autorizadores,
      aprobacion_automatica_hasta,
    });
    expect(approvedAtPurchase(rules(0, null), 9999)).toBe(true);
    expect(approvedAtPurchase(rules(1, null), 10)).toBe(false);
    expect(approvedAtPurchase(rules(2, 500), 500)).toBe(true);
    expect(approvedAtPurchase(rules(2, 500), 500.01)).toBe(false);
    expect(approvedAtPurchase(null, 1)).toBe(false);
  });
});
