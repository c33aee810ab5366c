import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { delegationErrorField, delegationFormErrors, delegationSentence } from './delegation';

const delegacion = (desde: string, hasta: string) => ({
  delegado: { id: 7, nombre: 'Luis Pérez', rol: 2 },
  desde,
  hasta,
  activa: false,
});

describe('delegationSentence', () => {
  it('says whom and when, for oneself or for someone else', () => {
    expect(delegationSentence(delegacion('2026-12-01', '2026-12-05'), true)).toBe(
      'Delegas en Luis Pérez del 01/12/2026 al 05/12/2026',
    );
    expect(delegationSentence(delegacion('2026-12-01', '2026-12-05'), false)).toBe(
      'Delega en Luis Pérez del 01/12/2026 al 05/12/2026',
    );
  });

  it('names a single day once', () => {
    expect(delegationSentence(delegacion('2026-12-01', '2026-12-01'), true)).toBe(
      'Delegas en Luis Pérez el 01/12/2026',
    );
  });
});

describe('delegationFormErrors', () => {
  const today = '2026-11-25';
  it('asks for the delegate and both dates', () => {
    expect(delegationFormErrors({ delegado_id: null, desde: null, hasta: null }, today)).toEqual({
      delegado_id: MSG.delegadoRequerido,
      fechas: MSG.fechasRequeridas,
    });
  });

  it('refuses a window the server would refuse, under the dates', () => {
    expect(
      delegationFormErrors({ delegado_id: '7', desde: '2026-11-25', hasta: '2027-02-23' }, today),
    ).toEqual({
      fechas: MSG.delegacionMuyLarga,
    });
    expect(
      delegationFormErrors({ delegado_id: '7', desde: '2026-11-20', hasta: '2026-11-24' }, today),
    ).toEqual({
      fechas: MSG.delegacionTerminada,
    });
  });

  it('takes 90 days, and an ongoing window that started before today', () => {
    expect(
      delegationFormErrors({ delegado_id: '7', desde: '2026-11-25', hasta: '2027-02-22' }, today),
    ).toEqual({});
    expect(
      delegationFormErrors({ delegado_id: '7', desde: '2026-11-20', hasta: '2026-11-25' }, today),
    ).toEqual({});
  });
});

describe('delegationErrorField', () => {
  it('follows the field map of a 400, the two dates being one field', () => {
    expect(
      delegationErrorField(
        new ApiError(400, 'VALIDATION', MSG.delegadoNoValido, { delegado_id: MSG.delegadoNoValido }),
      ),
    ).toEqual({ field: 'delegado_id', message: MSG.delegadoNoValido });
    expect(
      delegationErrorField(
        new ApiError(400, 'VALIDATION', MSG.delegacionMuyLarga, { hasta: MSG.delegacionMuyLarga }),
      ),
    ).toEqual({ field: 'fechas', message: MSG.delegacionMuyLarga });
  });

  it('places a 400 without fields by its message', () => {
    expect(delegationErrorField(new ApiError(400, 'DELEGADO_AUSENTE', MSG.delegadoAusente))).toEqual({
      field: 'delegado_id',
      message: MSG.delegadoAusente,
    });
    expect(delegationErrorField(new ApiError(400, 'X', MSG.delegacionTerminada))).toEqual({
      field: 'fechas',
      message: MSG.delegacionTerminada,
    });
    expect(delegationErrorField(new ApiError(400, 'X', MSG.delegacionSoloAutorizadores))).toBeNull();
  });

  it('leaves any other error to the caller', () => {
    expect(delegationErrorField(new ApiError(404, 'NOT_FOUND', MSG.usuarioNoEncontrado))).toBeNull();
    expect(delegationErrorField(new Error('boom'))).toBeNull();
  });
});
