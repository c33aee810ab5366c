import { CLAIM_MSG } from '@portal/shared/domain/claims';
import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { claimActions, type DecisionDraft, decisionCheck } from './decision';

const draft: DecisionDraft = { resolucion: 'credito', texto: '', guia: '', paqueteria: '' };

describe('claimActions', () => {
  it('an open claim may be accepted, sent back or refused; a returned one accepted or refused', () => {
    expect(claimActions('abierto')).toEqual(['aceptar', 'devolucion', 'rechazar']);
    expect(claimActions('devolucion')).toEqual(['aceptar', 'rechazar']);
    expect(claimActions('aceptado')).toEqual([]);
    expect(claimActions('rechazado')).toEqual([]);
  });
});

describe('decisionCheck', () => {
  it('accepts with the resolution chosen and the note when written', () => {
    expect(decisionCheck('aceptar', draft)).toEqual({
      errors: {},
      body: { accion: 'aceptar', resolucion: 'credito' },
    });
    expect(decisionCheck('aceptar', { ...draft, resolucion: 'reposicion', texto: ' Va hoy ' }).body).toEqual({
      accion: 'aceptar',
      resolucion: 'reposicion',
      nota: 'Va hoy',
    });
  });

  it('a refusal needs its reason', () => {
    expect(decisionCheck('rechazar', { ...draft, texto: '  ' })).toEqual({
      errors: { texto: CLAIM_MSG.reclamoMotivoRechazo },
      body: null,
    });
    expect(decisionCheck('rechazar', { ...draft, texto: 'Llegó completo' }).body).toEqual({
      accion: 'rechazar',
      motivo: 'Llegó completo',
    });
  });

  it('a return needs its guía; the carrier and the note are optional', () => {
    expect(decisionCheck('devolucion', draft).errors).toEqual({ guia: CLAIM_MSG.reclamoGuia });
    expect(decisionCheck('devolucion', { ...draft, guia: ' 123 ', paqueteria: 'DHL' }).body).toEqual({
      accion: 'devolucion',
      guia: '123',
      paqueteria: 'DHL',
    });
    expect(decisionCheck('devolucion', { ...draft, guia: '1', paqueteria: 'x'.repeat(41) }).errors).toEqual({
      paqueteria: MSG.guiasPaqueteriaLarga,
    });
  });

  it('a note is at most 1000 characters', () => {
    expect(decisionCheck('aceptar', { ...draft, texto: 'x'.repeat(1001) }).errors).toEqual({
      texto: CLAIM_MSG.reclamoNotaLarga,
    });
  });
});
