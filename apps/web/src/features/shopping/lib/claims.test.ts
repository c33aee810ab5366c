import { CLAIM_MSG } from '@portal/shared/domain/claims';
import type { OrderLineDto, OrderShipmentDto } from '@portal/shared/schemas/orders';
import { describe, expect, it } from 'vitest';
import {
  CLAIM_EMPTY,
  canReceiveShipment,
  claimableLines,
  claimableUnits,
  claimCheck,
  fullReceipt,
  RECEIPT_REASON_REQUIRED,
  receiptCheck,
  receiptLines,
  unitsOf,
} from './claims';

const line = (id: number, over: Partial<OrderLineDto> = {}): OrderLineDto => ({
  id,
  id_producto: 100 + id,
  clave_interna: `P-${id}`,
  clave_cliente: '',
  nombre: `Producto ${id}`,
  unidad_de_medida: 'Caja',
  categoria: 'Papelería',
  costo: 10,
  impuesto: true,
  cantidad: 5,
  importe: 50,
  enviado: 5,
  ...over,
});

const envio: OrderShipmentDto = {
  id: 7,
  numero: 1,
  guia: null,
  paqueteria: null,
  fecha: '2026-12-04',
  lineas: [
    { id_linea: 1, cantidad: 5 },
    { id_linea: 2, cantidad: 3 },
  ],
  recepcion: null,
};
const lineas = [line(1), line(2, { cantidad: 3, enviado: 3, unidad_de_medida: 'Pieza' })];
const lines = receiptLines(envio, lineas);
const none = { nota: '', fotos: [], resolucion: null };

describe('claimableUnits', () => {
  it('is shipped plus credited less claimed, never below 0', () => {
    expect(claimableUnits({ enviado: 5 })).toBe(5);
    expect(claimableUnits({ enviado: 4, acreditado: 1, reclamado: 2 })).toBe(3);
    expect(claimableUnits({ enviado: 1, reclamado: 3 })).toBe(0);
    expect(claimableUnits({})).toBe(0);
  });

  it('lists the lines with units to claim, only on an approved order', () => {
    const pedido = { status: 'aprobado' as const, lineas: [line(1), line(2, { enviado: 0 })] };
    expect(claimableLines(pedido).map((l) => l.id)).toEqual([1]);
    expect(claimableLines({ ...pedido, status: 'cancelado' })).toEqual([]);
  });
});

describe('canReceiveShipment', () => {
  it('once the order ships, until the shipment has its receipt', () => {
    expect(canReceiveShipment({ status: 'aprobado', surtido: 'parcial' }, envio)).toBe(true);
    expect(canReceiveShipment({ status: 'aprobado', surtido: 'enviado' }, envio)).toBe(true);
    expect(canReceiveShipment({ status: 'aprobado', surtido: 'entregado' }, envio)).toBe(true);
    expect(canReceiveShipment({ status: 'aprobado', surtido: 'en_surtido' }, envio)).toBe(false);
    expect(canReceiveShipment({ status: 'cancelado', surtido: 'enviado' }, envio)).toBe(false);
    const received = {
      recepcion: { id: 1, fecha: '2026-12-05T16:00:00Z', por: 'Ana', nota: null, lineas: [], fotos: [] },
    };
    expect(canReceiveShipment({ status: 'aprobado', surtido: 'enviado' }, received)).toBe(false);
  });
});

describe('receiptLines and fullReceipt', () => {
  it("names the shipment's lines with the units shipped, each received in full at first", () => {
    expect(lines).toEqual([
      { id: 1, nombre: 'Producto 1', unidad: 'Caja', enviadas: 5 },
      { id: 2, nombre: 'Producto 2', unidad: 'Pieza', enviadas: 3 },
    ]);
    expect(fullReceipt(lines)).toEqual({
      1: { recibido: 5, motivo: null },
      2: { recibido: 3, motivo: null },
    });
  });
});

describe('receiptCheck', () => {
  it('received in full: no lines, no resolution, nothing to fix', () => {
    expect(receiptCheck(lines, fullReceipt(lines), none)).toEqual({
      differences: false,
      errors: { lineas: {} },
      body: { lineas: [] },
    });
  });

  it('sends only the lines received short, each with its reason, and what is asked for', () => {
    const draft = { ...fullReceipt(lines), 2: { recibido: 1, motivo: 'danado' as const } };
    const check = receiptCheck(lines, draft, {
      nota: '  Caja mojada ',
      fotos: [4, 9],
      resolucion: 'credito',
    });
    expect(check.differences).toBe(true);
    expect(check.body).toEqual({
      lineas: [{ id: 2, recibido: 1, motivo: 'danado' }],
      nota: 'Caja mojada',
      fotos: [4, 9],
      resolucion: 'credito',
    });
  });

  it('a line received short needs its reason, and then a resolution', () => {
    const draft = { ...fullReceipt(lines), 1: { recibido: 0, motivo: null } };
    const check = receiptCheck(lines, draft, none);
    expect(check.differences).toBe(true);
    expect(check.body).toBeNull();
    expect(check.errors.lineas).toEqual({ 1: { motivo: RECEIPT_REASON_REQUIRED } });
    expect(check.errors.resolucion).toBe(CLAIM_MSG.reclamoResolucion);
  });

  it('refuses a number out of range or empty, and a note too long', () => {
    const draft = { 1: { recibido: 6, motivo: null }, 2: { recibido: '', motivo: null } };
    const check = receiptCheck(lines, draft, { ...none, nota: 'x'.repeat(1001) });
    expect(check.body).toBeNull();
    expect(check.errors.lineas[1]?.cantidad).toBe('No puedes recibir más de 5.');
    expect(check.errors.lineas[2]?.cantidad).toBe(CLAIM_MSG.recepcionCantidad);
    expect(check.errors.nota).toBe(CLAIM_MSG.reclamoNotaLarga);
    // A wrong number alone is no difference: nothing asks for a resolution yet.
    expect(check.differences).toBe(false);
    expect(check.errors.resolucion).toBeUndefined();
  });

  it('ignores the resolution when everything arrived', () => {
    expect(receiptCheck(lines, fullReceipt(lines), { ...none, resolucion: 'reposicion' }).body).toEqual({
      lineas: [],
    });
  });
});

describe('claimCheck', () => {
  const claimable = [line(1, { reclamado: 2 }), line(2, { enviado: 3 })];

  it('sends the lines with units, their reasons and the resolution', () => {
    const check = claimCheck(
      claimable,
      { 1: { cantidad: 3, motivo: 'no_solicitado' }, 2: { cantidad: '', motivo: null } },
      { nota: '', fotos: [], resolucion: 'reposicion' },
    );
    expect(check.errors).toEqual({ lineas: {} });
    expect(check.body).toEqual({
      lineas: [{ id: 1, cantidad: 3, motivo: 'no_solicitado' }],
      resolucion: 'reposicion',
    });
  });

  it('needs at least one unit, a reason for each line claimed and a resolution', () => {
    expect(claimCheck(claimable, {}, none).errors).toEqual({
      lineas: {},
      vacio: CLAIM_EMPTY,
      resolucion: CLAIM_MSG.reclamoResolucion,
    });
    const check = claimCheck(
      claimable,
      { 2: { cantidad: 1, motivo: null } },
      { ...none, resolucion: 'credito' },
    );
    expect(check.body).toBeNull();
    expect(check.errors.lineas).toEqual({ 2: { motivo: CLAIM_MSG.reclamoMotivo } });
  });

  it('never more than the claimable units of a line', () => {
    const check = claimCheck(
      claimable,
      { 1: { cantidad: 4, motivo: 'danado' } },
      { ...none, resolucion: 'credito' },
    );
    expect(check.errors.lineas[1]?.cantidad).toBe('Puedes reclamar hasta 3.');
    expect(check.body).toBeNull();
  });
});

describe('unitsOf', () => {
  it('reads a number field: an empty one is no number', () => {
    expect(unitsOf(3)).toBe(3);
    expect(unitsOf('4')).toBe(4);
    expect(unitsOf(' ')).toBeNaN();
  });
});
