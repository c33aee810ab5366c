import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { listItemsOf, noteForPurchase, purchaseConfirmation } from './order-extras';

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

describe('purchaseConfirmation', () => {
  const rules = (
    cantidad_autorizadores: number,
    aprobacion_automatica_hasta: number | null,
    ventana_reglas_horas = 0,
  ) => ({ cantidad_autorizadores, aprobacion_automatica_hasta, ventana_reglas_horas });

  it('says a purchase is approved at once with no levels or up to the automatic amount', () => {
    expect(purchaseConfirmation(rules(0, null), 9999)).toBe(MSG.confirmarCompraAutomatica);
    expect(purchaseConfirmation(rules(0, null, 24), 9999)).toBe(MSG.confirmarCompraAutomatica);
    expect(purchaseConfirmation(rules(1, null), 10)).toBe(MSG.confirmarCompra);
    expect(purchaseConfirmation(rules(2, 500), 500)).toBe(MSG.confirmarCompraAutomatica);
    expect(purchaseConfirmation(rules(2, 500), 500.01)).toBe(MSG.confirmarCompra);
    expect(purchaseConfirmation(null, 1)).toBe(MSG.confirmarCompra);
  });

  it("with a window, says that the buyer's earlier orders may take it to review", () => {
    expect(purchaseConfirmation(rules(1, 500, 24), 100)).toBe(
      'Tu pedido quedará aprobado automáticamente, sin revisión, si con tus pedidos de las últimas 24 horas no pasa de $500.00 MXN; si pasa, se enviará a revisión.',
    );
    expect(purchaseConfirmation(rules(1, 500, 1), 100)).toContain('de la última hora no pasa');
    expect(purchaseConfirmation(rules(1, 500, 24), 600)).toBe(MSG.confirmarCompra);
  });
});
