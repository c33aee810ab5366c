import { describe, expect, it } from 'vitest';
import { MSG } from '../../messages.ts';
import { retrySchedule } from './webhook-delivery.ts';
import { isPrivateAddress, resolveTarget } from './webhook-target.ts';

describe('webhook targets', () => {
  it('private, loopback, link-local and reserved addresses are recognised, public ones pass', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      '8.8.8.8',
      '172.32.0.1',
      '172.15.255.255',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('outside development only https; a private address only when allowed', async () => {
    const production = { allowHttp: false, allowPrivate: false };
    const http = await resolveTarget(new URL('http://8.8.8.8/x'), production);
    expect(http).toEqual({ ok: false, refusal: { code: 'WEBHOOK_HTTPS', msg: MSG.webhookUrlHttps } });
    expect((await resolveTarget(new URL('https://8.8.8.8/x'), production)).ok).toBe(true);
    const local = await resolveTarget(new URL('https://127.0.0.1/x'), production);
    expect(local).toEqual({ ok: false, refusal: { code: 'WEBHOOK_PRIVATE', msg: MSG.webhookUrlPrivada } });
    expect(
      (await resolveTarget(new URL('https://127.0.0.1/x'), { allowHttp: false, allowPrivate: true })).ok,
    ).toBe(true);
    const named = await resolveTarget(new URL('https://localhost/x'), production);
    expect(named.ok).toBe(false);
  });

  it('the retry schedule covers 24 hours with doubling waits capped at an hour', () => {
    const { retryLimit, retryDelayMax } = retrySchedule(30);
    expect(retryDelayMax).toBe(3600);
    let total = 0;
    for (let n = 0; n < retryLimit; n++) total += Math.min(retryDelayMax, 30 * 2 ** n);
    expect(total).toBeGreaterThanOrEqual(24 * 3600);
    expect(retryLimit).toBeLessThan(40);
  });
});
