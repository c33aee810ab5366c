import { describe, expect, it } from 'vitest';
import { listNameKey } from './lists.ts';
import { waitingFor } from './order-workflow.ts';
import { reorderQuantity } from './reorder.ts';

describe('repeating an order, saved lists, whom an order waits for', () => {
  it('a repeated line asks for its quantity on top of the cart, capped at the limit; at the limit, more than it', () => {
    expect(reorderQuantity(4, 0, 5)).toBe(4);
    expect(reorderQuantity(4, 2, 5)).toBe(5);
    expect(reorderQuantity(1, 4, 5)).toBe(5);
    // Nothing fits: the cart's quantity check refuses it with its own message.
    expect(reorderQuantity(2, 5, 5)).toBe(7);
    expect(reorderQuantity(1, 6, 3)).toBe(7);
  });

  it('list names are one name ignoring case, accents and extra spaces', () => {
    expect(listNameKey('  Papelería   Mensual ')).toBe('papeleria mensual');
    expect(listNameKey('PAPELERIA MENSUAL')).toBe(listNameKey('papelería mensual'));
    expect(listNameKey('Año\tnuevo')).toBe('ano nuevo');
    expect(listNameKey('Café')).not.toBe(listNameKey('Cafe 2'));
  });

  it('a pendiente order waits for level 1 and an espera order for level 2, since the last event that brought it there', () => {
    const events = [
      { a: 'pendiente', fecha: '2026-03-02T10:00:00.000Z' },
      { a: 'pendiente', fecha: '2026-03-02T11:00:00.000Z' },
      { a: 'espera', fecha: '2026-03-03T09:00:00.000Z' },
    ];
    expect(waitingFor('pendiente', events.slice(0, 2), 'x')).toEqual({
      nivel: 1,
      desde: '2026-03-02T11:00:00.000Z',
    });
    expect(waitingFor('espera', events, 'x')).toEqual({ nivel: 2, desde: '2026-03-03T09:00:00.000Z' });
    expect(waitingFor('pendiente', [], '2026-03-01T00:00:00.000Z')).toEqual({
      nivel: 1,
      desde: '2026-03-01T00:00:00.000Z',
    });
    expect(waitingFor('aprobado', events, 'x')).toBeNull();
    expect(waitingFor('cancelado', events, 'x')).toBeNull();
  });
});
