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
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(c.PORT).toBe(8080);
    expect(c.dataDir).toBe('/var/lib/portal');
    expect(c.supportPhones).toEqual(['55 1111 2222', '800 123 4567']);
    expect(c.PUBLIC_URL).toBe('https://compras.example.com');
    expect(c.SESSION_IDLE_MINUTES).toBe(30);
    expect(c.TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1');
  });

  it('listens on this machine only unless HOST opens it', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('trusts a proxy only by its address, never every client nor the nearest hops', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '::1' }).TRUST_PROXY).toBe('::1');
    // A hop count says what to set instead (issue 38, finding 2).
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(
      /TRUST_PROXY: un número de proxies \(1\) dejaría que quien se conecte directamente elija su dirección; indica las direcciones del proxy/,
    );
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: true confiaría en cualquier cliente/,
    );
  });

  it('serves metrics only when METRICS_PORT is set, on this machine unless METRICS_HOST says otherwise', () => {
    const none = loadConfig({});
    expect(none.METRICS_PORT).toBeUndefined();
    expect(none.METRICS_HOST).toBe('127.0.0.1');
    expect(none.METRICS_TOKEN).toBeUndefined();
    const set = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 't'.repeat(24) });
    expect(set.METRICS_PORT).toBe(9464);
    expect(set.METRICS_HOST).toBe('0.0.0.0');
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT: debe ser distinto de PORT \(3000\)/,
    );
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_TOKEN: 'corto' })).toThrow(
      /METRICS_TOKEN: debe tener al menos 24 caracteres/,
    );
  });

  it('refuses in production metrics open to the network without a token, saying what to set', () => {
    const production = { NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40), METRICS_PORT: '9464' };
    for (const host of ['0.0.0.0', '10.1.2.3', '::', '::ffff:127.0.0.1', 'metricas.interno'])
      expect(() => loadConfig({ ...production, METRICS_HOST: host })).toThrow(
        new RegExp(
          `METRICS_TOKEN: es obligatorio en producción cuando las métricas escuchan fuera de este equipo \\(METRICS_HOST=${host.replace(/[.]/g, '\\.')}\\); define METRICS_TOKEN`,
        ),
      );
    for (const host of ['127.0.0.1', '127.0.0.53', '::1', '0:0:0:0:0:0:0:1', 'localhost'])
      expect(loadConfig({ ...production, METRICS_HOST: host }).METRICS_HOST).toBe(host);
    const token = 'k'.repeat(32);
    expect(loadConfig({ ...production, METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token }).METRICS_TOKEN).toBe(
      token,
    );
    // Outside production a developer may open it without one; without METRICS_PORT nothing listens at all.
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).METRICS_TOKEN).toBeUndefined();
    expect(
      loadConfig({ ...production, METRICS_PORT: '', METRICS_HOST: '0.0.0.0' }).METRICS_PORT,
    ).toBeUndefined();
  });

  it("refuses the browser tests' cheap password hashing in production", () => {
    const secret = 'x'.repeat(40);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: secret, TEST_PASSWORD_HASHING: 'true' }),
    ).toThrow(/TEST_PASSWORD_HASHING: solo para pruebas/);
    expect(loadConfig({ NODE_ENV: 'production', SECRET_KEY: secret }).TEST_PASSWORD_HASHING).toBe(false);
    expect(loadConfig({ TEST_PASSWORD_HASHING: '1' }).TEST_PASSWORD_HASHING).toBe(true);
  });

  it('requires SECRET_KEY in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SECRET_KEY: es obligatoria en producción/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'corta' })).toThrow(/SECRET_KEY/);
    const c = loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'x'.repeat(40) });
    expect(c.SECRET_KEY).toHaveLength(40);
  });

  it('keeps data for the periods of issue 38 unless told otherwise', () => {
    const c = loadConfig({});
    expect([
      c.RETENTION_WEBHOOK_DAYS,
      c.RETENTION_NOTICE_MONTHS,
      c.RETENTION_EMAIL_DAYS,
      c.RETENTION_LINK_DAYS,
      c.RETENTION_SIGNIN_DAYS,
      c.RETENTION_LOG_MONTHS,
      c.RETENTION_BATCH_SIZE,
    ]).toEqual([90, 13, 90, 30, 30, 24, 500]);
    const set = loadConfig({
      RETENTION_WEBHOOK_DAYS: '30',
      RETENTION_NOTICE_MONTHS: '24',
      RETENTION_EMAIL_DAYS: '7',
      RETENTION_LINK_DAYS: '1',
      RETENTION_SIGNIN_DAYS: '60',
      RETENTION_LOG_MONTHS: '0',
      RETENTION_BATCH_SIZE: '100',
    });
    expect(set.RETENTION_WEBHOOK_DAYS).toBe(30);
    expect(set.RETENTION_NOTICE_MONTHS).toBe(24);
    expect(set.RETENTION_LOG_MONTHS).toBe(0);
    expect(set.RETENTION_BATCH_SIZE).toBe(100);
  });

  it.each([
    ['RETENTION_WEBHOOK_DAYS', '0', 'debe ser un número entero de días entre 1 y 3650'],
    ['RETENTION_EMAIL_DAYS', 'noventa', 'debe ser un número entero de días entre 1 y 3650'],
    ['RETENTION_LINK_DAYS', '1.5', 'debe ser un número entero de días entre 1 y 3650'],
    ['RETENTION_SIGNIN_DAYS', '-3', 'debe ser un número entero de días entre 1 y 3650'],
    // A month's budget alert must outlive the month, or it would be sent again.
    ['RETENTION_NOTICE_MONTHS', '1', 'debe ser un número entero de meses entre 2 y 120'],
    ['RETENTION_LOG_MONTHS', '-1', 'debe ser un número entero de meses entre 0 y 1200'],
    ['RETENTION_BATCH_SIZE', '20000', 'debe ser un número entero de filas entre 1 y 10000'],
  ])('a wrong %s=%s is refused in Spanish', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name}: ${message}`);
  });

  it('live-updates streams: five minutes long with a heartbeat every 25 s unless set; out of range is refused in Spanish', () => {
    const c = loadConfig({});
    expect([c.EVENTS_MAX_SECONDS, c.EVENTS_HEARTBEAT_SECONDS]).toEqual([300, 25]);
    const set = loadConfig({ EVENTS_MAX_SECONDS: '0.5', EVENTS_HEARTBEAT_SECONDS: '10' });
    expect([set.EVENTS_MAX_SECONDS, set.EVENTS_HEARTBEAT_SECONDS]).toEqual([0.5, 10]);
    expect(() => loadConfig({ EVENTS_MAX_SECONDS: '0' })).toThrow(
      'EVENTS_MAX_SECONDS: debe ser un número de segundos entre 0.1 y 3600',
    );
    expect(() => loadConfig({ EVENTS_MAX_SECONDS: 'mucho' })).toThrow(
      'EVENTS_MAX_SECONDS: debe ser un número de segundos entre 0.1 y 3600',
    );
    expect(() => loadConfig({ EVENTS_HEARTBEAT_SECONDS: '301' })).toThrow(
      'EVENTS_HEARTBEAT_SECONDS: debe ser un número de segundos entre 0.1 y 300',
    );
  });

  it('SECRET_KEY_PREVIOUS: earlier keys separated by commas, each of 32 characters or more, only beside SECRET_KEY', () => {
    const current = 'n'.repeat(40);
    const c = loadConfig({
      SECRET_KEY: current,
      SECRET_KEY_PREVIOUS: ` ${'a'.repeat(40)} ,${'b'.repeat(32)},`,
    });
    expect(c.SECRET_KEY_PREVIOUS).toEqual(['a'.repeat(40), 'b'.repeat(32)]);
    expect(loadConfig({ SECRET_KEY: current }).SECRET_KEY_PREVIOUS).toBeUndefined();
    expect(() => loadConfig({ SECRET_KEY: current, SECRET_KEY_PREVIOUS: `${'a'.repeat(40)},corta` })).toThrow(
      /SECRET_KEY_PREVIOUS: cada clave anterior debe tener al menos 32 caracteres/,
    );
    expect(() => loadConfig({ SECRET_KEY_PREVIOUS: 'a'.repeat(40) })).toThrow(
      /SECRET_KEY_PREVIOUS: solo tiene sentido con SECRET_KEY/,
    );
    expect(() => loadConfig({ SECRET_KEY: current, SECRET_KEY_PREVIOUS: current })).toThrow(
      /SECRET_KEY_PREVIOUS: no debe repetir SECRET_KEY/,
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'no-es-url'],
    ['BUSINESS_TZ', 'Marte/Olympus'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['TRUST_PROXY', 'quizas'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '*'],
    ['PUBLIC_URL', 'ftp://x'],
  ])('a wrong %s stops the start and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('a replica for the heavy readers only with a primary; its lag bound and check interval have defaults', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://r@127.0.0.1:5433/portal' })).toThrow(
      /DATABASE_REPLICA_URL: solo tiene sentido con DATABASE_URL/,
    );
    const c = loadConfig({
      DATABASE_URL: 'postgres://p@127.0.0.1:5432/portal',
      DATABASE_REPLICA_URL: 'postgres://r@127.0.0.1:5433/portal',
    });
    expect([c.DATABASE_REPLICA_URL, c.REPLICA_MAX_LAG_SECONDS, c.REPLICA_CHECK_MS]).toEqual([
      'postgres://r@127.0.0.1:5433/portal',
      30,
      5000,
    ]);
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'http://x' })).toThrow(/DATABASE_REPLICA_URL/);
  });
});
