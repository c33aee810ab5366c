import { describe, expect, it } from 'vitest';
import { logFiltersOf, metadataRows } from './log-params';

const of = (q: string) => logFiltersOf(new URLSearchParams(q));

describe('system log filters in the URL', () => {
  it('digits in usuario are a user id (older links), other text searches names', () => {
    expect(of('usuario=12')).toMatchObject({ user_id: 12, usuario: null });
    expect(of('usuario=Jos%C3%A9')).toMatchObject({ user_id: null, usuario: 'José' });
    expect(of('usuario=j')).toMatchObject({ user_id: null, usuario: null });
    expect(of('usuario=0')).toMatchObject({ user_id: null, usuario: null });
  });

  it('keeps the client, an order number as typed and valid dates; drops what the server would refuse', () => {
    expect(of('cliente=3&pedido=%2300012&desde=2026-03-01&hasta=2026-03-31&tipo=login&page=2')).toEqual({
      page: 2,
      event_type: 'login',
      user_id: null,
      usuario: null,
      id_cliente: 3,
      pedido: '#00012',
      desde: '2026-03-01',
      hasta: '2026-03-31',
    });
    expect(of('cliente=abc&pedido=doce&desde=ayer&page=-4')).toMatchObject({
      page: 1,
      id_cliente: null,
      pedido: null,
      desde: null,
    });
  });
});

describe('metadata as rows', () => {
  it('one row per key; booleans in Spanish, nested values as JSON, nothing for empty', () => {
    expect(
      metadataRows({ id_pedido: 12, ip: '10.0.0.1', activo: false, campos: ['a', 'b'], x: null }),
    ).toEqual([
      { key: 'id_pedido', value: '12' },
      { key: 'ip', value: '10.0.0.1' },
      { key: 'activo', value: 'No' },
      { key: 'campos', value: '["a","b"]' },
      { key: 'x', value: '—' },
    ]);
    expect(metadataRows({})).toEqual([]);
    expect(metadataRows(null)).toEqual([]);
  });
});
