import { describe, expect, it } from 'vitest';
import { resultPath } from './global-search';

describe('resultPath', () => {
  it('opens a user on Usuarios with the client chosen and the drawer open', () => {
    expect(resultPath('u:15:3')).toBe('/administrador/usuarios?cliente=3&editar=15');
  });
  it('opens an order on its read-only page', () => {
    expect(resultPath('p:42')).toBe('/administrador/pedidos/42');
  });
});
