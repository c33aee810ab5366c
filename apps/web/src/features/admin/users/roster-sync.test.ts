import { describe, expect, it } from 'vitest';
import { changedFields, people, refusedRows, roleName, rosterFormData } from './roster-sync';

describe('the HR list (POST /api/cliente/sincronizar)', () => {
  it('is sent as the file and whether to preview; the client only when the distributor names it', () => {
    const file = new File(['usuario,correo,nombre\n'], 'personal.csv', { type: 'text/csv' });
    const own = rosterFormData(file, true);
    expect(own.get('vista_previa')).toBe('1');
    expect(own.has('id_cliente')).toBe(false);
    expect((own.get('archivo') as File).name).toBe('personal.csv');
    const named = rosterFormData(file, false, 12);
    expect(named.get('vista_previa')).toBe('0');
    expect(named.get('id_cliente')).toBe('12');
  });

  it('reads a refused list’s rows from the server’s fields, the file’s own refusal as row 0', () => {
    expect(
      refusedRows({
        'fila 3 correo': 'El correo no es válido.',
        'fila 12 usuario': 'Repetido (fila 4).',
        archivo: 'La lista debe tener las columnas usuario, correo y nombre.',
      }),
    ).toEqual([
      { fila: 3, campo: 'correo', motivo: 'El correo no es válido.', valor: '' },
      { fila: 12, campo: 'usuario', motivo: 'Repetido (fila 4).', valor: '' },
      {
        fila: 0,
        campo: 'archivo',
        motivo: 'La lista debe tener las columnas usuario, correo y nombre.',
        valor: '',
      },
    ]);
    expect(refusedRows(undefined)).toEqual([]);
  });

  it('says what changes and who, in Spanish', () => {
    expect(changedFields(['correo'])).toBe('correo');
    expect(changedFields(['nombre', 'correo'])).toBe('nombre y correo');
    expect(changedFields(['nombre', 'correo', 'rol'])).toBe('nombre, correo y rol');
    expect(roleName(2)).toBe('Autorizador');
    expect(roleName(9)).toBe('Rol 9');
    expect(people(1)).toBe('1 usuario');
    expect(people(1200)).toBe('1,200 usuarios');
  });
});
