import { describe, expect, it } from 'vitest';
import {
  CARRIERS,
  canConfirmReceipt,
  isForwardMove,
  knownCarrier,
  nextFulfilmentStates,
  trackingLink,
} from './fulfilment.ts';

describe('fulfilment moves', () => {
  it('go forward only, skipping ahead allowed; never back nor to the same state', () => {
    expect(isForwardMove('por_surtir', 'en_surtido')).toBe(true);
    expect(isForwardMove('por_surtir', 'enviado')).toBe(true);
    expect(isForwardMove('enviado', 'enviado')).toBe(false);
    expect(isForwardMove('enviado', 'en_surtido')).toBe(false);
    expect(nextFulfilmentStates('en_surtido')).toEqual(['enviado', 'entregado']);
    expect(nextFulfilmentStates('entregado')).toEqual([]);
  });

  it('the buyer confirms receipt of a shipped order only', () => {
    expect(canConfirmReceipt('enviado')).toBe(true);
    expect(canConfirmReceipt('en_surtido')).toBe(false);
    expect(canConfirmReceipt('entregado')).toBe(false);
    expect(canConfirmReceipt(null)).toBe(false);
  });
});

describe('carrier links', () => {
  it('knows the five carriers by any spelling of their name', () => {
    expect(CARRIERS.map((c) => c.nombre)).toEqual(['DHL', 'FedEx', 'Estafeta', 'Paquetexpress', '99minutos']);
    expect(knownCarrier(' fedex ')?.nombre).toBe('FedEx');
    expect(knownCarrier('Fed-Ex')?.nombre).toBe('FedEx');
    expect(knownCarrier('99 Minutos')?.nombre).toBe('99minutos');
    expect(knownCarrier('Redpack')).toBeUndefined();
    expect(knownCarrier('')).toBeUndefined();
  });

  it('links a guía by its carrier given apart or by its first word; an unknown one stays text', () => {
    expect(trackingLink('1234567890', 'DHL')).toEqual({
      texto: 'DHL 1234567890',
      url: 'https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=1234567890',
    });
    expect(trackingLink('Estafeta 12 34')).toEqual({
      texto: 'Estafeta 12 34',
      url: 'https://cs.estafeta.com/es/Tracking/searchByGet?wayBill=1234&wayBillType=1',
    });
    expect(trackingLink('99minutos A/1').url).toBe('https://tracking.99minutos.com/search/A%2F1');
    expect(trackingLink('Redpack 123')).toEqual({ texto: 'Redpack 123', url: null });
    expect(trackingLink('123', 'Redpack')).toEqual({ texto: 'Redpack 123', url: null });
    expect(trackingLink('FedEx')).toEqual({ texto: 'FedEx', url: null });
  });
});
