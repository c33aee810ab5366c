import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { vapidSubject } from './vapid.ts';

/** The VAPID subject and the push settings (decision 0117, docs/configuration.md). */
describe('vapidSubject', () => {
  const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

  it('is PUSH_SUBJECT, else an https PUBLIC_URL, else a mailto: of MAIL_FROM’s address', () => {
    expect(vapidSubject(config({ PUSH_SUBJECT: 'mailto:operacion@example.com' }))).toBe(
      'mailto:operacion@example.com',
    );
    expect(vapidSubject(config({ PUBLIC_URL: 'https://compras.example.com/' }))).toBe(
      'https://compras.example.com',
    );
    expect(vapidSubject(config({ PUBLIC_URL: 'http://localhost:3000' }))).toBe(
      'mailto:no-reply@portal-de-compras.local',
    );
    expect(vapidSubject(config({ MAIL_FROM: 'Compras <avisos@example.com>' }))).toBe(
      'mailto:avisos@example.com',
    );
    expect(vapidSubject(config({ MAIL_FROM: 'avisos@example.com' }))).toBe('mailto:avisos@example.com');
    expect(vapidSubject(config({ MAIL_FROM: 'Compras sin dirección' }))).toBe(
      'mailto:no-reply@portal-de-compras.local',
    );
  });

  it('refuses a subject push services would refuse, and a poll that is neither off nor at least 50 ms', () => {
    expect(() => config({ PUSH_SUBJECT: 'http://compras.example.com' })).toThrow(ConfigError);
    expect(() => config({ PUSH_SUBJECT: 'http://compras.example.com' })).toThrow(/PUSH_SUBJECT/);
    expect(() => config({ PUSH_POLL_MS: '10' })).toThrow(/PUSH_POLL_MS/);
    expect(config({ PUSH_POLL_MS: '0' }).PUSH_POLL_MS).toBe(0);
    expect(config({}).PUSH_POLL_MS).toBe(2000);
    expect(config({}).PUSH_ALLOW_PRIVATE).toBe(false);
    expect(config({}).RETENTION_PUSH_DAYS).toBe(7);
    expect(config({}).RETENTION_PUSH_MONTHS).toBe(3);
  });
});
