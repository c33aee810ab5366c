import { describe, expect, it } from 'vitest';
import { listHref, orderHref, queueFilter } from './queue';

describe('the review queue in the address', () => {
  it("carries the list's filter, search and page to the order and back, nothing else", () => {
    const search = '?estatus=todos&q=ana+p&pagina=2&otro=1';
    expect(orderHref(12, search)).toBe('/autorizador/orden/12?estatus=todos&q=ana+p&pagina=2');
    expect(listHref('?estatus=todos&q=ana+p&pagina=2')).toBe(
      '/autorizador/principal?estatus=todos&q=ana+p&pagina=2',
    );
    expect(orderHref(3, '')).toBe('/autorizador/orden/3');
    expect(listHref('?x=1')).toBe('/autorizador/principal');
  });

  it('reads the filter, defaulting to the actionable orders', () => {
    expect(queueFilter('?estatus=espera&q=%20Ana%20')).toEqual({
      status: 'espera',
      q: 'Ana',
      orden: 'fecha_desc',
    });
    expect(queueFilter('')).toEqual({ status: 'accionables', q: '', orden: 'fecha_desc' });
    expect(queueFilter('?estatus=nada&orden=nada&desde=ayer')).toEqual({
      status: 'accionables',
      q: '',
      orden: 'fecha_desc',
    });
  });

  it("carries the list's sort and period to the order, and reads them back", () => {
    const search = '?estatus=todos&orden=total_asc&desde=2026-03-01&hasta=2026-03-31&pagina=2';
    expect(orderHref(12, search)).toBe(`/autorizador/orden/12${search}`);
    expect(queueFilter(search)).toEqual({
      status: 'todos',
      q: '',
      orden: 'total_asc',
      desde: '2026-03-01',
      hasta: '2026-03-31',
    });
  });
});
