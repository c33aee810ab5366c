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
      // The same addresses as the URL parser writes them, and the other IPv6 forms that carry an IPv4 one.
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:c0a8:101',
      '::ffff:0:7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a00:1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:db8::1',
      'fec0::1',
      'not-an-address',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      '8.8.8.8',
      '172.32.0.1',
      '172.15.255.255',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2a00:1450:4001:81a::200e',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('a URL writes an address in many forms: every one of loopback and metadata is refused', async () => {
    const production = { allowHttp: true, allowPrivate: false };
    for (const url of [
      'http://[::ffff:127.0.0.1]:8080/',
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'http://[::ffff:192.168.1.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[::127.0.0.1]/',
      'http://[::]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://017700000001/',
      'http://127.1/',
      'http://0251.0376.0251.0376/',
    ]) {
      const target = await resolveTarget(new URL(url), production);
      expect(target, url).toEqual({
        ok: false,
        refusal: { code: 'WEBHOOK_PRIVATE', msg: MSG.webhookUrlPrivada },
      });
    }
  });

  it('a URL with a user or a password is refused, even to a public host', async () => {
    for (const url of ['https://user:pass@8.8.8.8/x', 'https://user@8.8.8.8/x', 'https://:pass@8.8.8.8/x']) {
      const target = await resolveTarget(new URL(url), { allowHttp: false, allowPrivate: true });
      expect(target, url).toEqual({
        ok: false,
        refusal: { code: 'WEBHOOK_CREDENTIALS', msg: MSG.webhookUrlCredenciales },
      });
    }
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
