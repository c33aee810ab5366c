import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults: port 3000, ./data, Mexico City', () => {
    const c = loadConfig({ INIT_CWD: '/srv/portal' });
    expect(c.PORT).toBe(3000);
    expect(c.dataDir).toBe('/srv/portal/data');
    expect(c.BUSINESS_TZ).toBe('America/Mexico_City');
    expect(c.PUBLIC_URL).toBe('http://localhost:3000');
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('parses every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/portal',
      DATABASE_URL: 'postgres://u@db:5432/portal',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Compras <compras@example.com>',
      BUSINESS_TZ: 'America/Tijuana',
      SUPPORT_PHONES: '55 1111 2222, 800 123 4567',
      PUBLIC_URL: 'https://compras.example.com/',
      SESSION_IDLE_MINUTES: '30',
      SESSION_MAX_HOURS: '8',
      TRUST_PROXY: 'true',
    });
    expect(c.PORT).toBe(8080);
    expect(c.dataDir).toBe('/var/lib/portal');
    expect(c.supportPhones).toEqual(['55 1111 2222', '800 123 4567']);
    expect(c.PUBLIC_URL).toBe('https://compras.example.com');
    expect(c.SESSION_IDLE_MINUTES).toBe(30);
    expect(c.TRUST_PROXY).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'no-es-url'],
    ['BUSINESS_TZ', 'Marte/Olympus'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['TRUST_PROXY', 'quizas'],
    ['PUBLIC_URL', 'ftp://x'],
  ])('a wrong %s stops the start and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
