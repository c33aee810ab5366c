import { describe, expect, it } from 'vitest';
import { canConfirmReceipt, isForwardMove, nextFulfilmentStates } from './fulfilment.ts';

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
