import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import {
  emailDomain,
  normalizeDomain,
  SSO_ERROR_MESSAGES,
  type SsoErrorCode,
  ssoRefusalText,
} from './sso.ts';

describe('ssoRefusalText', () => {
  it('shows the text of every code', () => {
    for (const code of Object.keys(SSO_ERROR_MESSAGES) as SsoErrorCode[]) {
      expect(ssoRefusalText(`?sso=${code}`)).toBe(SSO_ERROR_MESSAGES[code]);
    }
  });

  it('falls back to the general refusal for an unknown code', () => {
    expect(ssoRefusalText('?sso=otra_cosa')).toBe(MSG.ssoRechazado);
    expect(ssoRefusalText('?sso=toString')).toBe(MSG.ssoRechazado);
    expect(ssoRefusalText('?sso=')).toBe(MSG.ssoRechazado);
  });

  it('is null without a code', () => {
    expect(ssoRefusalText('')).toBeNull();
    expect(ssoRefusalText('?volver=%2Fusuario%2Fcarrito')).toBeNull();
  });
});

describe('e-mail domains', () => {
  it('takes the part after the last @, in lower case', () => {
    expect(emailDomain('Ana.Ruiz@Empresa.COM.mx ')).toBe('empresa.com.mx');
    expect(emailDomain('"a@b"@empresa.mx')).toBe('empresa.mx');
    expect(emailDomain('sin-arroba')).toBe('');
    expect(emailDomain('@empresa.mx')).toBe('');
  });

  it('normalizes a typed domain', () => {
    expect(normalizeDomain('  @Empresa.MX ')).toBe('empresa.mx');
  });
});
