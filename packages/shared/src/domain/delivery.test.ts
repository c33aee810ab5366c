import { describe, expect, it } from 'vitest';
import { deliveryAddress } from './delivery.ts';

describe('delivery address', () => {
  it('prints every part once, in order, with the postal code last', () => {
    expect(
      deliveryAddress({
        direccion_entrega: 'Almacén norte, andén 3',
        calle: 'Av. Industria 100',
        colonia: 'Centro',
        ciudad: 'Monterrey',
        estado: 'Nuevo León',
        cp: '64000',
      }),
    ).toBe('Almacén norte, andén 3, Av. Industria 100, Centro, Monterrey, Nuevo León, C.P. 64000');
  });

  it('leaves out empty parts and parts the free text already holds', () => {
    expect(deliveryAddress({ direccion_entrega: 'Av. Juárez 10, Centro', colonia: 'centro', cp: '' })).toBe(
      'Av. Juárez 10, Centro',
    );
    expect(deliveryAddress({ calle: 'Calle 5', cp: '01000' })).toBe('Calle 5, C.P. 01000');
    expect(deliveryAddress({})).toBe('');
  });
});
