import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import {
  applyFieldErrors,
  formErrorSummary,
  missingFirst,
  REQUIRED_FIELD,
  serverFieldErrors,
} from './form-errors';

const form = () => ({ values: { usuario: '', user_id: '', activo: true }, setErrors: vi.fn() });

describe('serverFieldErrors', () => {
  it('reads the field map of a 400', () => {
    const error = new ApiError(400, 'VALIDATION', 'El correo electrónico no es válido.', {
      user_id: 'El correo electrónico no es válido.',
    });
    expect(serverFieldErrors(error)).toEqual({ user_id: 'El correo electrónico no es válido.' });
  });

  it('is empty for a 400 without fields, another status or another error', () => {
    expect(serverFieldErrors(new ApiError(400, 'VALIDATION', 'Datos inválidos.'))).toEqual({});
    expect(
      serverFieldErrors(new ApiError(409, 'DUPLICATE', 'Ya existe.', { usuario: 'Ya existe.' })),
    ).toEqual({});
    expect(serverFieldErrors(new Error('boom'))).toEqual({});
    expect(serverFieldErrors(undefined)).toEqual({});
  });
});

describe('applyFieldErrors', () => {
  it('puts the messages of the form’s fields on them and returns the others', () => {
    const f = form();
    const rest = applyFieldErrors(
      f,
      new ApiError(400, 'VALIDATION', 'El usuario no puede contener espacios.', {
        usuario: 'El usuario no puede contener espacios.',
        activo: 'Valor inválido.',
        categorias: 'Categoría ajena.',
      }),
    );
    expect(f.setErrors).toHaveBeenCalledOnce();
    expect(f.setErrors).toHaveBeenCalledWith({
      usuario: 'El usuario no puede contener espacios.',
      activo: 'Valor inválido.',
    });
    expect(rest).toEqual({ categorias: 'Categoría ajena.' });
  });

  it('leaves the form alone when no field of it is named', () => {
    const f = form();
    expect(applyFieldErrors(f, new ApiError(400, 'VALIDATION', 'x', { _: 'Datos inválidos.' }))).toEqual({
      _: 'Datos inválidos.',
    });
    expect(applyFieldErrors(f, new ApiError(500, 'INTERNAL', 'x'))).toEqual({});
    expect(f.setErrors).not.toHaveBeenCalled();
  });
});

describe('missingFirst and formErrorSummary', () => {
  const REQUIRED = 'Todos los campos obligatorios deben ser completados';

  it('shows only the missing fields while any is missing', () => {
    const errors = missingFirst(
      { usuario: 'El usuario no puede contener espacios.', nombre: REQUIRED, rol: REQUIRED },
      REQUIRED,
    );
    expect(errors).toEqual({ nombre: REQUIRED_FIELD, rol: REQUIRED_FIELD });
    expect(formErrorSummary(errors, REQUIRED)).toEqual({ title: 'Faltan datos', text: REQUIRED });
    // With the fields' labels, the summary names what is missing (decision 0098).
    expect(formErrorSummary(errors, REQUIRED, { nombre: 'Nombre', rol: 'Rol', usuario: 'Usuario' })).toEqual({
      title: 'Faltan datos',
      text: `${REQUIRED} Falta: Nombre, Rol.`,
    });
  });

  it('keeps the other refusals and sums up the first', () => {
    const errors = missingFirst(
      { usuario: 'El usuario no puede contener espacios.', user_id: 'El correo electrónico no es válido.' },
      REQUIRED,
    );
    expect(errors).toEqual({
      usuario: 'El usuario no puede contener espacios.',
      user_id: 'El correo electrónico no es válido.',
    });
    expect(formErrorSummary(errors, REQUIRED)).toEqual({
      title: 'Revisa los datos',
      text: 'El usuario no puede contener espacios.',
    });
  });
});
