import { describe, expect, it } from 'vitest';
import { available, disponibilidad, disponibilidadLabel, laterShipmentLabel } from './stock.ts';

describe('availability', () => {
  const today = '2026-12-05';
  it('unknown stock says nothing', () => {
    expect(available(null, 3)).toBeNull();
    expect(disponibilidad({ existencia: null, reservado: 0, diasEntrega: 7 }, 5, today)).toBeNull();
  });
  it('in stock, a few left, on backorder with the estimated date', () => {
    const of = (existencia: number, reservado: number, diasEntrega: number | null = 7) =>
      disponibilidad({ existencia, reservado, diasEntrega }, 5, today);
    expect(of(20, 2)).toEqual({ estado: 'en_existencia' });
    expect(of(8, 5)).toEqual({ estado: 'pocas', quedan: 3 });
    expect(of(5, 0)).toEqual({ estado: 'pocas', quedan: 5 });
    expect(of(4, 6)).toEqual({ estado: 'sobre_pedido', entrega_estimada: '2026-12-12' });
    expect(of(0, 0, null)).toEqual({ estado: 'sobre_pedido', entrega_estimada: null });
    expect(disponibilidadLabel(of(20, 2)!)).toBe('En existencia');
    expect(disponibilidadLabel(of(8, 5)!)).toBe('Quedan 3');
    expect(disponibilidadLabel(of(1, 0)!)).toBe('Queda 1');
    expect(disponibilidadLabel(of(4, 6)!)).toBe('Sobre pedido · entrega estimada 12/12/2026');
    expect(disponibilidadLabel(of(0, 0, null)!)).toBe('Sobre pedido');
  });
  it('the cart names the lines that ship later', () => {
    expect(laterShipmentLabel(4, { cantidad: 4, entrega_estimada: '2026-12-12' })).toBe(
      'Sobre pedido: se enviará después · entrega estimada 12/12/2026',
    );
    expect(laterShipmentLabel(5, { cantidad: 2, entrega_estimada: null })).toBe('2 de 5 se enviarán después');
  });
});
