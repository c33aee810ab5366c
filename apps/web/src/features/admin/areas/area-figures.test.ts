import { describe, expect, it } from 'vitest';
import { areaMonth } from './area-figures';

const area = (presupuesto: number, ampliaciones: number, utilizado: number) => ({
  presupuesto,
  ampliaciones,
  presupuesto_mes: presupuesto + ampliaciones,
  utilizado,
  restante: presupuesto + ampliaciones - utilizado,
});

describe('an área’s month on the Áreas screen', () => {
  it('the share used and its colour, red when nothing is left', () => {
    expect(areaMonth(area(1000, 0, 250))).toMatchObject({ usedPct: 25, color: 'teal', over: false });
    expect(areaMonth(area(1000, 0, 700))).toMatchObject({ color: 'orange' });
    expect(areaMonth(area(1000, 0, 900))).toMatchObject({ color: 'red', over: false });
    // A transfer left it below what it spent.
    expect(areaMonth(area(1000, -400, 700))).toMatchObject({ usedPct: 100, color: 'red', over: true });
    expect(areaMonth(area(0, 0, 0))).toMatchObject({ usedPct: 0, color: 'teal' });
    expect(areaMonth(area(0, 0, 10))).toMatchObject({ usedPct: 100, over: true });
  });

  it('says how this month’s top-ups and transfers changed its budget', () => {
    expect(areaMonth(area(1000, 0, 0)).adjusted).toBeNull();
    expect(areaMonth(area(1000, 250, 0)).adjusted).toBe('Base $1,000.00 + $250.00 este mes');
    expect(areaMonth(area(1000, -250.5, 0)).adjusted).toBe('Base $1,000.00 − $250.50 este mes');
  });
});
