import { describe, expect, it } from 'vitest';
import { addressLines, waitingText } from './order-info';

describe('addressLines', () => {
  const empty = { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' };

  it('shows only the parts that are given', () => {
    expect(
      addressLines({
        direccion_entrega: 'Almacén central',
        calle: 'Av. Reforma 100',
        colonia: 'Juárez',
        ciudad: 'CDMX',
        cp: '06600',
      }),
    ).toEqual(['Almacén central', 'Av. Reforma 100', 'Juárez, CDMX, C.P. 06600']);
    expect(addressLines({ ...empty, calle: 'Calle 5 ', cp: '06600' })).toEqual(['Calle 5', 'C.P. 06600']);
  });

  it('is empty when nothing is registered (blank parts included)', () => {
    expect(addressLines(empty)).toEqual([]);
    expect(addressLines({ ...empty, colonia: '  ' })).toEqual([]);
  });
});

describe('waitingText', () => {
  it('names the level and the date and time in the business zone', () => {
    // 18:05 UTC is 12:05 in Mexico City.
    expect(waitingText({ nivel: 1, desde: '2026-03-10T18:05:00.000Z' })).toBe(
      'En espera del Autorizador (nivel 1) desde el 10/03/2026 12:05',
    );
    expect(waitingText({ nivel: 2, desde: '2026-03-11T03:30:00.000Z' })).toBe(
      'En espera del Super Autorizador (nivel 2) desde el 10/03/2026 21:30',
    );
  });

  it('is null for a final status', () => {
    expect(waitingText(null)).toBeNull();
  });
});
