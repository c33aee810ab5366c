// @vitest-environment jsdom
import { ROLES } from '@portal/shared/domain/roles';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberClient } from '../../lib/chosen-client';
import { isActive, navItemsFor, panelTitleFor } from './nav-links';

describe('the chosen client in the administrator’s sidebar', () => {
  afterEach(() => rememberClient(null));

  it('the links to Usuarios, Inventario, Semanas, Áreas and Ampliaciones carry it; the others do not', () => {
    const links = Object.fromEntries(
      navItemsFor(ROLES.administrador, undefined, 3).map((i) => [i.label, i.to]),
    );
    expect(links).toMatchObject({
      Usuarios: '/administrador/usuarios?cliente=3',
      Inventario: '/administrador/inventario?cliente=3',
      'Semanas de acceso': '/administrador/semanas?cliente=3',
      Áreas: '/administrador/areas?cliente=3',
      Ampliaciones: '/administrador/ampliaciones?cliente=3',
      Clientes: '/administrador/clientes',
      Tablero: '/administrador/tablero',
      'Registros del sistema': '/administrador/logs',
    });
    expect(navItemsFor(ROLES.administrador, undefined, null).find((i) => i.label === 'Usuarios')?.to).toBe(
      '/administrador/usuarios',
    );
  });

  it('a link with the client is still the current page', () => {
    expect(isActive('/administrador/usuarios', '/administrador/usuarios?cliente=3')).toBe(true);
    expect(isActive('/administrador/usuarios/usuario/8/productos', '/administrador/usuarios?cliente=3')).toBe(
      true,
    );
    expect(isActive('/administrador/inventario', '/administrador/usuarios?cliente=3')).toBe(false);
  });

  it('is remembered for the tab, and forgotten when cleared', () => {
    rememberClient(7);
    expect(window.sessionStorage.getItem('portal.admin.cliente')).toBe('7');
    rememberClient(null);
    expect(window.sessionStorage.getItem('portal.admin.cliente')).toBeNull();
  });
});

describe('the client administrator’s sidebar (rol 5)', () => {
  it('links to its own area only, with no client carried', () => {
    expect(navItemsFor(ROLES.administradorCliente, undefined, 3).map((i) => [i.label, i.to])).toEqual([
      ['Mi empresa', '/cliente/principal'],
      ['Tablero', '/cliente/tablero'],
      ['Usuarios', '/cliente/usuarios'],
      ['Direcciones de entrega', '/cliente/direcciones'],
      ['Estado de cuenta', '/cliente/estado-de-cuenta'],
      ['Registros del sistema', '/cliente/registros'],
    ]);
    expect(panelTitleFor(ROLES.administradorCliente)).toBe('Panel Empresa');
  });

  it('adds the screens of what its client allows: the HR list, the weeks, the rules', () => {
    const links = (permisos: Parameters<typeof navItemsFor>[3]) =>
      navItemsFor(ROLES.administradorCliente, undefined, null, permisos).map((i) => i.to);
    expect(links(['usuarios'])).toEqual([
      '/cliente/principal',
      '/cliente/tablero',
      '/cliente/usuarios',
      '/cliente/direcciones',
      '/cliente/estado-de-cuenta',
      '/cliente/sincronizar',
      '/cliente/registros',
    ]);
    expect(links(['presupuestos', 'asignaciones', 'semanas', 'reglas'])).toEqual([
      '/cliente/principal',
      '/cliente/tablero',
      '/cliente/usuarios',
      '/cliente/direcciones',
      '/cliente/estado-de-cuenta',
      '/cliente/semanas',
      '/cliente/reglas',
      '/cliente/areas',
      '/cliente/ampliaciones',
      '/cliente/registros',
    ]);
    // A buyer's products are under Usuarios, which stays the current section there.
    expect(isActive('/cliente/usuarios/usuario/8/productos', '/cliente/usuarios')).toBe(true);
  });
});

describe('the budget top-ups in the sidebar (decision 0123)', () => {
  it('authorizers and super authorizers have «Ampliaciones»; a client administrator with «presupuestos»', () => {
    for (const rol of [ROLES.autorizador, ROLES.superAutorizador])
      expect(navItemsFor(rol).map((i) => [i.label, i.to])).toContainEqual([
        'Ampliaciones',
        '/autorizador/ampliaciones',
      ]);
    const labels = (permisos: Parameters<typeof navItemsFor>[3]) =>
      navItemsFor(ROLES.administradorCliente, undefined, null, permisos).map((i) => i.label);
    expect(labels(['presupuestos'])).toEqual(expect.arrayContaining(['Áreas', 'Ampliaciones']));
    expect(labels(['usuarios', 'semanas', 'reglas', 'asignaciones'])).not.toContain('Áreas');
    expect(labels(['usuarios', 'semanas', 'reglas', 'asignaciones'])).not.toContain('Ampliaciones');
  });
});

describe('«Recepción» of a receiver named by the client (decision 0130)', () => {
  const receiving = (rol: number, receptor: boolean) =>
    navItemsFor(rol, undefined, null, [], receptor).filter((i) => i.label === 'Recepción');

  it('is in the rol-1 and rol-2–3 areas of a receiver only', () => {
    expect(receiving(ROLES.usuario, true)).toEqual([
      { label: 'Recepción', to: '/usuario/recepcion', icon: 'recepcion' },
    ]);
    expect(receiving(ROLES.autorizador, true)[0]?.to).toBe('/autorizador/recepcion');
    expect(receiving(ROLES.superAutorizador, true)[0]?.to).toBe('/autorizador/recepcion');
    for (const rol of [ROLES.usuario, ROLES.autorizador, ROLES.superAutorizador])
      expect(receiving(rol, false)).toEqual([]);
    expect(receiving(ROLES.administrador, true)).toEqual([]);
    expect(receiving(ROLES.administradorCliente, true)).toEqual([]);
  });
});
