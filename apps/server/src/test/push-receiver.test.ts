import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptPushBody, verifyVapid } from './push-receiver.ts';

/**
 * The test push service's own checks (test/push-receiver.ts): its decryptor against the example of RFC 8291
 * section 5 (keys, salt, secret and message from the RFC; each derived value as the RFC lists it), and its
 * VAPID check (RFC 8292) on tokens signed here with node:crypto.
 */
const b = (s: string) => Buffer.from(s, 'base64url');

describe('decryptPushBody: RFC 8291 section 5', () => {
  const ua = {
    publicKey: b('BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'),
    privateKey: b('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94'),
    authSecret: b('BTBZMqHH6r4Tts7J_aSIgg'),
  };
  const message = b(
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
  );

  it('decrypts the example to its plaintext, through the RFC’s intermediate values', () => {
    const { plaintext, keys, recordSize } = decryptPushBody(message, ua);
    expect(plaintext.toString('utf8')).toBe('When I grow up, I want to be a watermelon');
    expect(recordSize).toBe(4096);
    expect(keys.ecdhSecret.toString('base64url')).toBe('kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs');
    expect(keys.ikm.toString('base64url')).toBe('S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg');
    expect(keys.prk.toString('base64url')).toBe('09_eUZGrsvxChDCGRCdkLiDXrReGOEVeSCdCcPBSJSc');
    expect(keys.cek.toString('base64url')).toBe('oIhVW04MRdy2XN9CiKLxTg');
    expect(keys.nonce.toString('base64url')).toBe('4h_95klXJ5E_qnoN');
  });

  it('refuses a changed byte, another device’s secret and a cut body', () => {
    const tampered = Buffer.from(message);
    tampered[tampered.length - 20]! ^= 1;
    expect(() => decryptPushBody(tampered, ua)).toThrow();
    expect(() => decryptPushBody(message, { ...ua, authSecret: Buffer.alloc(16, 7) })).toThrow();
    expect(() => decryptPushBody(message.subarray(0, 40), ua)).toThrow(/keyid|registro|cabecera/);
  });
});

describe('verifyVapid: RFC 8292', () => {
  const server = createECDH('prime256v1');
  const publicKey = server.generateKeys();
  const k = publicKey.toString('base64url');
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33).toString('base64url'),
      d: server.getPrivateKey().toString('base64url'),
    },
    format: 'jwk',
  });
  const now = 1_800_000_000;
  const jwt = (claims: Record<string, unknown>, alg = 'ES256') => {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const input = `${part({ typ: 'JWT', alg })}.${part(claims)}`;
    const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  };
  const aud = 'https://push.example.test';
  const good = { aud, exp: now + 12 * 3600, sub: 'mailto:ops@example.test' };

  it('takes a token signed with k for this origin, in either order of t and k', () => {
    expect(verifyVapid(`vapid t=${jwt(good)}, k=${k}`, aud, k, now)).toMatchObject({ ok: true, k });
    expect(verifyVapid(`vapid k=${k}, t=${jwt(good)}`, aud, null, now).ok).toBe(true);
  });

  it('refuses another origin, a token out of its time, no subject, another key and a forged signature', () => {
    const problem = (header: string | undefined, expected: string | null = k) =>
      verifyVapid(header, aud, expected, now).problem;
    expect(problem(undefined)).toMatch(/falta/);
    expect(problem(`vapid t=${jwt({ ...good, aud: 'https://otro.example.test' })}, k=${k}`)).toMatch(/^aud/);
    expect(problem(`vapid t=${jwt({ ...good, exp: now - 1 })}, k=${k}`)).toMatch(/vencido/);
    expect(problem(`vapid t=${jwt({ ...good, exp: now + 25 * 3600 })}, k=${k}`)).toMatch(/24 horas/);
    expect(problem(`vapid t=${jwt({ aud, exp: now + 60 })}, k=${k}`)).toMatch(/sub/);
    expect(problem(`vapid t=${jwt(good, 'HS256')}, k=${k}`)).toMatch(/ES256/);
    const other = createECDH('prime256v1').generateKeys().toString('base64url');
    expect(problem(`vapid t=${jwt(good)}, k=${other}`)).toMatch(/firma/);
    expect(problem(`vapid t=${jwt(good)}, k=${k}`, other)).toMatch(/clave VAPID del portal/);
    // Another subject under the first token's signature.
    const [head, , signature] = jwt(good).split('.');
    const forged = Buffer.from(JSON.stringify({ ...good, sub: 'mailto:x@y.z' })).toString('base64url');
    expect(problem(`vapid t=${head}.${forged}.${signature}, k=${k}`)).toMatch(/firma/);
  });
});
