// @vitest-environment jsdom
import { ROLES } from '@portal/shared/domain/roles';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberClient } from '../../lib/chosen-client';
import { isActive, navItemsFor, panelTitleFor } from './nav-links';

describe('the chosen client in the administrator’s sidebar', () => {
  afterEach(() => rememberClient(null));

  it('the links to Usuarios, Inventario and Semanas carry it; the others do not', () => {
    const links = Object.fromEntries(
      navItemsFor(ROLES.administrador, undefined, 3).map((i) => [i.label, i.to]),
    );
    expect(links).toMatchObject({
      Usuarios: '/administrador/usuarios?cliente=3',
      Inventario: '/administrador/inventario?cliente=3',
      'Semanas de acceso': '/administrador/semanas?cliente=3',
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
      ['Registros del sistema', '/cliente/registros'],
    ]);
    expect(panelTitleFor(ROLES.administradorCliente)).toBe('Panel Empresa');
  });
});
