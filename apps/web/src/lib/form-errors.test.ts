import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { applyFieldErrors, serverFieldErrors } from './form-errors';

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
