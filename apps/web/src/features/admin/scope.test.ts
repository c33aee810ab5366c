import { CLIENT_PERMISSIONS } from '@portal/shared/domain/client-admin';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { describe, expect, it } from 'vitest';
import {
  areaPath,
  clientScope,
  DISTRIBUTOR_SCOPE,
  isDistributor,
  mayAssign,
  mayAssignTo,
  mayChangeBudgets,
  mayChangeIdentity,
  mayChangeRules,
  mayChangeUsers,
  mayChangeWeeks,
  mayManage,
  mayOpen,
  maySelect,
  ROLE_FILTERS,
  roleOptions,
  userProductsPath,
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
    expect(mayAssign(DISTRIBUTOR_SCOPE)).toBe(true);
    expect(mayChangeWeeks(DISTRIBUTOR_SCOPE)).toBe(true);
    expect(mayChangeRules(DISTRIBUTOR_SCOPE)).toBe(true);
    expect(mayChangeIdentity(DISTRIBUTOR_SCOPE)).toBe(true);
    for (const rol of [1, 2, 3, 5]) expect(mayManage(DISTRIBUTOR_SCOPE, { rol })).toBe(true);
  });

  it('works in /administrador; a buyer’s products carry the client back to its users', () => {
    expect(areaPath(DISTRIBUTOR_SCOPE)).toBe('/administrador');
    expect(userProductsPath(DISTRIBUTOR_SCOPE, { id: 41, id_cliente: 7 })).toBe(
      '/administrador/usuarios/usuario/41/productos?cliente=7',
    );
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

  it('assigns products, changes weeks and rules only as its client allows', () => {
    const none = clientScope(client(['usuarios']));
    expect([mayAssign(none), mayChangeWeeks(none), mayChangeRules(none)]).toEqual([false, false, false]);
    const all = clientScope(client(['asignaciones', 'semanas', 'reglas']));
    expect([mayAssign(all), mayChangeWeeks(all), mayChangeRules(all)]).toEqual([true, true, true]);
  });

  it('sets its client’s sign-in and provisioning only with `identidad`, which no other permission brings', () => {
    const others = clientScope(client(['usuarios', 'presupuestos', 'asignaciones', 'semanas', 'reglas']));
    expect(mayChangeIdentity(others)).toBe(false);
    const identity = clientScope(client(['identidad']));
    expect(mayChangeIdentity(identity)).toBe(true);
    expect([mayChangeUsers(identity), mayChangeBudgets(identity), mayAssign(identity)]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('with `asignaciones` alone it selects the buyers (for their products), and changes no account', () => {
    const scope = clientScope(client(['asignaciones']));
    expect(mayAssignTo(scope, { rol: 1 })).toBe(true);
    expect(maySelect(scope, { rol: 1 })).toBe(true);
    for (const rol of [2, 3, 5]) expect(maySelect(scope, { rol })).toBe(false);
    expect(mayManage(scope, { rol: 1 })).toBe(false);
    // With `usuarios` too, every account it reaches may be checked (to deactivate it), never a rol 5.
    const both = clientScope(client(['usuarios', 'asignaciones']));
    expect([1, 2, 3].map((rol) => maySelect(both, { rol }))).toEqual([true, true, true]);
    expect(maySelect(both, { rol: 5 })).toBe(false);
  });

  it('works in /cliente, where a buyer’s products need no client in the address', () => {
    const scope = clientScope(client(['asignaciones']));
    expect(areaPath(scope)).toBe('/cliente');
    expect(userProductsPath(scope, { id: 41, id_cliente: 7 })).toBe('/cliente/usuarios/usuario/41/productos');
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
