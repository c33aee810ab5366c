import { FISCAL_MSG } from '@portal/shared/domain/fiscal';
import { describe, expect, it } from 'vitest';
import { rfcCheck } from './rfc.ts';

/** Real-format RFCs whose check digit is right (the SAT's test RFCs and @nodecfdi/rfc's own examples). */
describe('the RFC checked whole with @nodecfdi/rfc 2.0.6', () => {
  it('accepts a persona moral (12) and a persona física (13) with their check digit', () => {
    for (const rfc of ['EKU9003173C9', 'XIA190128J61', 'COSC8001137NA', 'CACX7605101P8', 'GODE561231GR8'])
      expect(rfcCheck(rfc), rfc).toBeNull();
  });

  it('refuses a wrong check digit, a date that does not exist, and what the shape check refuses', () => {
    expect(rfcCheck('EKU9003173C8')).toBe(FISCAL_MSG.rfcDigito);
    expect(rfcCheck('COSC8001137N1')).toBe(FISCAL_MSG.rfcDigito);
    expect(rfcCheck('EKU9013173C9')).toBe(FISCAL_MSG.rfcForma); // month 13
    expect(rfcCheck('EKU9002303C9')).toBe(FISCAL_MSG.rfcForma); // 30 February
    expect(rfcCheck('EKU9003173C')).toBe(FISCAL_MSG.rfcLongitud);
    // The library parses both; XAXX…'s last digit does not even match its own formula. Neither names a client.
    expect(rfcCheck('XAXX010101000')).toBe(FISCAL_MSG.rfcGenerico);
    expect(rfcCheck('XEXX010101000')).toBe(FISCAL_MSG.rfcGenerico);
  });
});
