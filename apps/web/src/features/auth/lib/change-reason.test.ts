import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { changeReasonText } from './change-reason';

describe('changeReasonText', () => {
  it('names the reason the server gives, and falls back to the general notice', () => {
    expect(changeReasonText('temporal')).toBe(MSG.cambioPasswordTemporal);
    expect(changeReasonText('caducada')).toBe(MSG.cambioPasswordCaducada);
    expect(changeReasonText(null)).toBe(MSG.cambioPasswordRequerido);
    expect(MSG.cambioPasswordTemporal).not.toBe(MSG.cambioPasswordCaducada);
  });
});
