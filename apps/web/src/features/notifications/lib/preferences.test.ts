import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import {
  CHANNEL_OPTIONS,
  HOUR_OPTIONS,
  hourLabel,
  preferenceRefusal,
  preferencesBody,
  preferenceValues,
  usesDailyDigest,
  usesPhone,
} from './preferences';

const prefs = {
  canales: {
    por_revisar: 'dia',
    pedido: 'inmediato',
    comentario: 'portal',
    presupuesto: 'hora',
    envio: 'inmediato',
  },
  resumen_hora: 8,
  importes_en_telefono: false,
  telefonos: 0,
  tipos: ['por_revisar', 'comentario', 'presupuesto'],
} as const;

describe('hourLabel and HOUR_OPTIONS', () => {
  it('shows an hour as the screens show times', () => {
    expect(hourLabel(0)).toBe('00:00');
    expect(hourLabel(8)).toBe('08:00');
    expect(hourLabel(23)).toBe('23:00');
  });

  it('offers the 24 hours, valued by their number', () => {
    expect(HOUR_OPTIONS).toHaveLength(24);
    expect(HOUR_OPTIONS[8]).toEqual({ value: '8', label: '08:00' });
  });
});

describe('CHANNEL_OPTIONS', () => {
  it('offers the five channels with their labels', () => {
    expect(CHANNEL_OPTIONS.map((o) => o.label)).toEqual([
      'Correo al momento',
      'Resumen cada hora',
      'Resumen diario',
      'Solo en el portal',
      'En el teléfono',
    ]);
  });
});

describe('preferenceValues and preferencesBody', () => {
  it("holds only the role's kinds, and sends the hour as a number", () => {
    const values = preferenceValues({ ...prefs, tipos: [...prefs.tipos] });
    expect(values).toEqual({
      canales: { por_revisar: 'dia', comentario: 'portal', presupuesto: 'hora' },
      resumen_hora: '8',
      importes_en_telefono: false,
    });
    expect(preferencesBody({ ...values, resumen_hora: '17', importes_en_telefono: true })).toEqual({
      canales: { por_revisar: 'dia', comentario: 'portal', presupuesto: 'hora' },
      resumen_hora: 17,
      importes_en_telefono: true,
    });
  });
});

describe('usesPhone', () => {
  it('is true only when some kind goes to the phone', () => {
    expect(usesPhone({ canales: { por_revisar: 'telefono' } })).toBe(true);
    expect(usesPhone({ canales: { por_revisar: 'dia', pedido: 'portal' } })).toBe(false);
  });
});

describe('usesDailyDigest', () => {
  it('is true only when some kind goes in the daily digest', () => {
    expect(usesDailyDigest({ canales: { por_revisar: 'dia' } })).toBe(true);
    expect(usesDailyDigest({ canales: { por_revisar: 'hora', pedido: 'portal' } })).toBe(false);
  });
});

describe('preferenceRefusal', () => {
  it("puts a kind's channel and the hour under their fields", () => {
    const error = new ApiError(400, 'VALIDATION', MSG.resumenHoraInvalida, {
      resumen_hora: MSG.resumenHoraInvalida,
      'canales.por_revisar': MSG.avisoCanalInvalido,
    });
    expect(preferenceRefusal(error)).toEqual({
      fields: { resumen_hora: MSG.resumenHoraInvalida, 'canales.por_revisar': MSG.avisoCanalInvalido },
      refusal: null,
    });
  });

  it('shows a kind the role does not receive, and any other refusal, above the buttons', () => {
    const notHers = new ApiError(400, 'VALIDATION', MSG.avisoTipoNoAplica, {
      canales: MSG.avisoTipoNoAplica,
    });
    expect(preferenceRefusal(notHers)).toEqual({ fields: {}, refusal: MSG.avisoTipoNoAplica });
    expect(preferenceRefusal(new ApiError(0, 'NETWORK', ''))).toEqual({
      fields: {},
      refusal: MSG.servicioNoDisponible,
    });
  });
});
