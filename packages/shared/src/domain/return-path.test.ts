import { describe, expect, it } from 'vitest';
import { allowedReturnPath, isSafePath, loginPathFor, returnPathFor } from './return-path.ts';
import { ROLES } from './roles.ts';

describe('returnPathFor', () => {
  it('opens an own-area path with its search', () => {
    expect(returnPathFor('/autorizador/orden/12', ROLES.autorizador)).toBe('/autorizador/orden/12');
    expect(returnPathFor('/autorizador/orden/12', ROLES.superAutorizador)).toBe('/autorizador/orden/12');
    expect(returnPathFor('/usuario/historial/7', ROLES.usuario)).toBe('/usuario/historial/7');
    expect(returnPathFor('/usuario/historial?status=pendiente&mes=2026-11', ROLES.usuario)).toBe(
      '/usuario/historial?status=pendiente&mes=2026-11',
    );
    expect(returnPathFor('/administrador/logs', ROLES.administrador)).toBe('/administrador/logs');
    expect(returnPathFor('/autorizador', ROLES.autorizador)).toBe('/autorizador');
  });

  it.each([
    ['https://x', 'a scheme'],
    ['https://example.com/autorizador/orden/1', 'another site'],
    ['//x', 'a protocol-relative address'],
    ['//example.com/autorizador/orden/1', 'a protocol-relative address to an area'],
    ['/\\x', 'a backslash the browser reads as a slash'],
    ['/autorizador\\orden/1', 'a backslash inside'],
    ['javascript:alert(1)', 'a script'],
    ['/autorizador//orden/1', 'a double slash inside'],
    ['/autorizador/orden/1\n', 'a control character'],
    ['/autorizador/orden/\u00001', 'a NUL'],
    ['/autorizador/../usuario/principal', 'a dot-dot segment'],
    ['/autorizador/%2e%2e/usuario', 'an encoded dot-dot'],
    ['/%2F%2Fexample.com', 'an encoded double slash'],
    ['autorizador/orden/1', 'no leading slash'],
    ['', 'empty'],
    ['/autorizadores/orden/1', 'a look-alike area'],
    [`/autorizador/${'a'.repeat(1000)}`, 'too long'],
  ])('refuses %j (%s) and goes home', (volver) => {
    expect(returnPathFor(volver, ROLES.autorizador)).toBe('/autorizador/principal');
  });

  it("sends a path of another role's area home", () => {
    expect(returnPathFor('/usuario/historial/7', ROLES.autorizador)).toBe('/autorizador/principal');
    expect(returnPathFor('/autorizador/orden/12', ROLES.usuario)).toBe('/usuario/principal');
    expect(returnPathFor('/administrador/usuarios', ROLES.superAutorizador)).toBe('/autorizador/principal');
    expect(returnPathFor('/usuario/carrito', ROLES.administrador)).toBe('/administrador/principal');
    expect(returnPathFor('/login', ROLES.usuario)).toBe('/usuario/principal');
    expect(returnPathFor('/cambiar-password', ROLES.usuario)).toBe('/usuario/principal');
  });

  it('without volver, or with a value that is not text, goes home', () => {
    expect(returnPathFor(null, ROLES.usuario)).toBe('/usuario/principal');
    expect(returnPathFor(undefined, ROLES.administrador)).toBe('/administrador/principal');
    expect(allowedReturnPath(42 as unknown as string, ROLES.usuario)).toBeNull();
    expect(allowedReturnPath('/usuario/principal', 9)).toBeNull();
  });
});

describe('isSafePath', () => {
  it('accepts a plain path with a search and a hash', () => {
    expect(isSafePath('/autorizador/orden/3?estatus=todos&q=ana%20p#lineas')).toBe(true);
  });
});

describe('loginPathFor', () => {
  it('carries a protected page, encoded', () => {
    expect(loginPathFor('/autorizador/orden/12?estatus=todos')).toBe(
      '/login?volver=%2Fautorizador%2Forden%2F12%3Festatus%3Dtodos',
    );
  });
  it('leaves out the root, public pages and unsafe paths', () => {
    expect(loginPathFor('/')).toBe('/login');
    expect(loginPathFor('/login')).toBe('/login');
    expect(loginPathFor('/recuperar-acceso')).toBe('/login');
    expect(loginPathFor('//example.com')).toBe('/login');
  });
});
