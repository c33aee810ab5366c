import { MSG } from '@portal/shared/messages';
import { SsoConfigBody, type SsoConfigView } from '@portal/shared/schemas/sso';
import { describe, expect, it } from 'vitest';
import { missingSecret, returnAddress, ssoBody, ssoInitialValues } from './client-sso-values';

const VIEW: SsoConfigView = {
  emisor: 'https://login.ferretera.com.mx',
  id_cliente: 'portal-compras',
  tiene_secreto: true,
  dominios: ['ferretera.com.mx', 'ferretera.mx'],
  obligatorio: true,
  alta_automatica: false,
  activo: true,
  url_retorno: 'https://compras.example.mx/api/sso/retorno',
  actualizado: '2026-12-03T15:00:00.000Z',
};

describe('client single sign-on values', () => {
  it('starts empty and active for a client without it, and from the saved one otherwise', () => {
    expect(ssoInitialValues(null)).toEqual({
      emisor: '',
      id_cliente: '',
      secreto: '',
      dominios: '',
      obligatorio: false,
      alta_automatica: false,
      activo: true,
    });
    expect(ssoInitialValues(VIEW)).toMatchObject({
      dominios: 'ferretera.com.mx, ferretera.mx',
      secreto: '',
      obligatorio: true,
    });
  });

  it('leaves an empty secret out of the body, and the schema reads the typed domains', () => {
    const body = ssoBody({ ...ssoInitialValues(VIEW), emisor: ' https://login.ferretera.com.mx ' });
    expect(body).not.toHaveProperty('secreto');
    expect(body.emisor).toBe('https://login.ferretera.com.mx');
    const parsed = SsoConfigBody.parse({ ...body, dominios: 'Ferretera.com.mx; @ferretera.mx  otra.com' });
    expect(parsed.dominios).toEqual(['ferretera.com.mx', 'ferretera.mx', 'otra.com']);
    expect(ssoBody({ ...ssoInitialValues(VIEW), secreto: 's3creto' }).secreto).toBe('s3creto');
  });

  it('asks for the secret only while none is stored', () => {
    const values = ssoInitialValues(null);
    expect(missingSecret(values, false)).toEqual({ secreto: MSG.ssoSecretoRequerido });
    expect(missingSecret(values, true)).toEqual({});
    expect(missingSecret({ ...values, secreto: 'x' }, false)).toEqual({});
  });

  it('shows the server’s return address, or this origin’s before the first save', () => {
    expect(returnAddress(VIEW, 'http://localhost:3000')).toBe(VIEW.url_retorno);
    expect(returnAddress(null, 'http://localhost:3000')).toBe('http://localhost:3000/api/sso/retorno');
  });
});
