import { AuthorizerOrdersQuery } from '@portal/shared/schemas/orders';
import { UsersQuery } from '@portal/shared/schemas/users';
import { describe, expect, it } from 'vitest';
import { listParamChanges, readListParams } from './list-params';

const Users = UsersQuery.omit({ id_cliente: true });
const ORDER_KEYS = { status: 'estatus', page: 'pagina' } as const;
const read = (query: string) => readListParams(Users, new URLSearchParams(query));

describe('readListParams', () => {
  it('reads each field through the shared schema', () => {
    expect(read('page=3&q=ana&rol=2&estatus=inactivo&orden=nombre_desc')).toEqual({
      page: 3,
      q: 'ana',
      rol: 2,
      estatus: 'inactivo',
      orden: 'nombre_desc',
    });
  });

  it('gives the defaults, or no filter, for absent and empty values', () => {
    expect(read('')).toEqual({
      page: 1,
      q: undefined,
      rol: undefined,
      estatus: undefined,
      orden: 'usuario_asc',
    });
    expect(read('q=&rol=&page=')).toMatchObject({ page: 1, q: undefined, rol: undefined });
  });

  it('falls back field by field: one bad value leaves the others', () => {
    expect(read('page=-2&rol=4&estatus=todos&orden=precio_asc&q=luis')).toEqual({
      page: 1,
      q: 'luis',
      rol: undefined,
      estatus: undefined,
      orden: 'usuario_asc',
    });
    expect(read('page=abc').page).toBe(1);
  });

  it('reads a field under the URL name the screen gives it', () => {
    const params = new URLSearchParams('estatus=espera&pagina=2&status=todos&desde=2026-02-30');
    expect(readListParams(AuthorizerOrdersQuery, params, ORDER_KEYS)).toMatchObject({
      status: 'espera',
      page: 2,
      desde: undefined,
    });
  });
});

describe('listParamChanges', () => {
  it('writes values as text and sends the list back to page 1', () => {
    expect(listParamChanges(Users, { rol: 3, q: 'ana' })).toEqual({ page: null, rol: '3', q: 'ana' });
  });

  it('leaves out null, empty and default values', () => {
    expect(listParamChanges(Users, { rol: null, q: '', orden: 'usuario_asc' })).toEqual({
      page: null,
      rol: null,
      q: null,
      orden: null,
    });
  });

  it('keeps the page it is given, and page 1 leaves the URL', () => {
    expect(listParamChanges(Users, { page: 4 })).toEqual({ page: '4' });
    expect(listParamChanges(Users, { page: 1 })).toEqual({ page: null });
  });

  it('writes under the URL names', () => {
    expect(listParamChanges(AuthorizerOrdersQuery, { status: 'todos' }, ORDER_KEYS)).toEqual({
      pagina: null,
      estatus: 'todos',
    });
    expect(listParamChanges(AuthorizerOrdersQuery, { status: 'accionables' }, ORDER_KEYS)).toEqual({
      pagina: null,
      estatus: null,
    });
  });
});
