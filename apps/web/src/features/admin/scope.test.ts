import { CLIENT_PERMISSIONS } from '@portal/shared/domain/client-admin';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { describe, expect, it } from 'vitest';
import {
  clientScope,
  DISTRIBUTOR_SCOPE,
  isDistributor,
  mayChangeBudgets,
  mayChangeUsers,
  mayManage,
  mayOpen,
  ROLE_FILTERS,
  roleOptions,
} from './scope';

/** The fields of a client the scope reads; the rest is irrelevant here. */
function client(permisos: ClientDto['permisos_cliente'], cantidad_autorizadores = 1): ClientDto {
  return {
    id: 7,
    nombre: 'Ferretera del Norte',
    permisos_cliente: permisos,
    cantidad_autorizadores,
  } as ClientDto;
}

const values = (options: { value: string }[]) => options.map((o) => o.value);

describe('the distributor’s scope (rol 4)', () => {
  it('reaches every account and may change everything', () => {
    expect(isDistributor(DISTRIBUTOR_SCOPE)).toBe(true);
    expect(DISTRIBUTOR_SCOPE.permisos).toEqual(CLIENT_PERMISSIONS);
    expect(mayChangeUsers(DISTRIBUTOR_SCOPE)).toBe(true);
    expect(mayChangeBudgets(DISTRIBUTOR_SCOPE)).toBe(true);
    for (const rol of [1, 2, 3, 5]) expect(mayManage(DISTRIBUTOR_SCOPE, { rol })).toBe(true);
  });

  it('gives «Administrador de cliente», and Super Autorizador only with two levels', () => {
    expect(values(roleOptions(DISTRIBUTOR_SCOPE, client([]), null))).toEqual(['1', '2', '5']);
    expect(values(roleOptions(DISTRIBUTOR_SCOPE, client([], 2), null))).toEqual(['1', '2', '3', '5']);
  });
});

describe('a client administrator’s scope (rol 5)', () => {
  it('has its client’s permissions', () => {
    const scope = clientScope(client(['usuarios', 'presupuestos']));
    expect(isDistributor(scope)).toBe(false);
    expect(scope.client?.id).toBe(7);
    expect(mayChangeUsers(scope)).toBe(true);
    expect(mayChangeBudgets(scope)).toBe(true);
  });

  it('reaches and changes accounts of roles 1–3, never another client administrator', () => {
    const scope = clientScope(client(['usuarios']));
    for (const rol of [1, 2, 3]) {
      expect(mayOpen(scope, { rol })).toBe(true);
      expect(mayManage(scope, { rol })).toBe(true);
    }
    expect(mayOpen(scope, { rol: 5 })).toBe(false);
    expect(mayManage(scope, { rol: 5 })).toBe(false);
  });

  it('without `usuarios` it only reads; without `presupuestos` budgets and limits stay', () => {
    const readOnly = clientScope(client(['presupuestos']));
    expect(mayChangeUsers(readOnly)).toBe(false);
    expect(mayManage(readOnly, { rol: 1 })).toBe(false);
    expect(mayOpen(readOnly, { rol: 1 })).toBe(true);
    const noBudgets = clientScope(client(['usuarios']));
    expect(mayChangeBudgets(noBudgets)).toBe(false);
    expect(mayChangeUsers(clientScope(client([])))).toBe(false);
  });

  it('gives roles 1–3 only (Super Autorizador with two levels), keeping a role the account already has', () => {
    const scope = clientScope(client(['usuarios']));
    expect(values(roleOptions(scope, client([]), null))).toEqual(['1', '2']);
    expect(values(roleOptions(scope, client([], 2), null))).toEqual(['1', '2', '3']);
    expect(values(roleOptions(scope, client([]), 3))).toEqual(['1', '2', '3']);
  });
});

it('the users list filters by every role an account of a client may have', () => {
  expect(ROLE_FILTERS.map((f) => [f.value, f.label])).toEqual([
    ['todos', 'Todos los roles'],
    ['1', 'Usuario'],
    ['2', 'Autorizador'],
    ['3', 'Super Autorizador'],
    ['5', 'Administrador de cliente'],
  ]);
});
