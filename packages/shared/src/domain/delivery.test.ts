import { describe, expect, it } from 'vitest';
import { deliveryAddress, deliveryContact, streetLine } from './delivery.ts';

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

describe('an address book copy', () => {
  const almacen = {
    id_direccion: 7,
    nombre: 'Almacén Norte',
    calle: 'Av. Industria',
    numero_exterior: '100',
    numero_interior: 'B',
    colonia: 'Industrial',
    municipio: 'Apodaca',
    ciudad: 'Monterrey',
    estado: 'Nuevo León',
    cp: '66600',
    contacto: 'Ana López',
    telefono: '8112345678',
    horario: 'L-V 9:00 a 14:00',
  };

  it('prints the label, the street with its numbers and every part, the postal code last', () => {
    expect(deliveryAddress(almacen)).toBe(
      'Almacén Norte, Av. Industria núm. ext. 100 int. B, Industrial, Apodaca, Monterrey, Nuevo León, C.P. 66600',
    );
    expect(streetLine({ calle: 'Calle 5', numero_exterior: '12' })).toBe('Calle 5 núm. ext. 12');
  });

  it('prints a municipio that is also the city once', () => {
    expect(deliveryAddress({ ...almacen, municipio: 'Monterrey', numero_interior: '' })).toBe(
      'Almacén Norte, Av. Industria núm. ext. 100, Industrial, Monterrey, Nuevo León, C.P. 66600',
    );
  });

  it('says who receives, the phone and the window; nothing for a profile address', () => {
    expect(deliveryContact(almacen)).toBe(
      'Recibe: Ana López · Tel. 81 1234 5678 · Horario: L-V 9:00 a 14:00',
    );
    expect(deliveryContact({ ...almacen, horario: '' })).toBe('Recibe: Ana López · Tel. 81 1234 5678');
    expect(deliveryContact({ calle: 'Calle 5' })).toBe('');
  });
});
