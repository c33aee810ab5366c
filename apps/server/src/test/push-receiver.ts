/**
 * A push service for the tests (decision 0117): a real HTTP server on 127.0.0.1 that stands in for the
 * browsers' push services. For each device it makes what a browser makes when it subscribes (a P-256 key
 * pair and a 16-byte authentication secret, node:crypto) and hands out the `{ endpoint, keys }` JSON of
 * `PushSubscription.toJSON()`, which a test posts to /api/push/suscripciones. For every push it receives it
 * checks the VAPID header (RFC 8292) and decrypts the body (RFC 8291 over RFC 8188's aes128gcm), written
 * from the RFCs with node:crypto alone, and records what it found.
 *
 * The API, for the API tests and the browser tests:
 * - `startPushReceiver({ tls?, port?, delayMs? })` → a receiver (`close()` when done); `tls` serves https (the
 *   reliability suite's servers run in production), `delayMs` holds each answer that long (a slow service);
 * - `receiver.vapidKey = '<the portal's GET /api/push/clave>'`: pushes signed with another key are refused
 *   (401) and recorded with `vapid.ok` false; unset, any valid signature is taken;
 * - `receiver.subscribe()` → a device's `{ endpoint, expirationTime, keys: { p256dh, auth } }`;
 * - `receiver.answer(endpoint, [500, 201])` → the statuses to give that device's pushes in turn (the last one
 *   repeats; 201 when none): 404 or 410 say the device is gone, 5xx a failure to retry;
 * - `receiver.received` → every push in order, and `receiver.pushesTo(endpoint)` those of one device:
 *   `{ endpoint, status, headers, vapid, payload }`, with `payload` the decrypted JSON (null when it did not
 *   decrypt: `error` says why).
 *
 * `decryptPushBody` and `verifyVapid` are exported for their own tests (RFC 8291 section 5's example).
 */
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  type ECDH,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 5869's HKDF with SHA-256, for lengths up to 32 bytes (one block of expand): extract, then expand. */
export function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  const prk = hmac(salt, ikm);
  return hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);
}

/** What RFC 8291 derives on the way to the content key: each step's value (its section 5 lists them). */
export interface PushKeys {
  ecdhSecret: Buffer;
  ikm: Buffer;
  prk: Buffer;
  cek: Buffer;
  nonce: Buffer;
}

/**
 * Decrypts a Web Push body (`Content-Encoding: aes128gcm`) as the user agent does:
 * - RFC 8188 section 2.1: the header is salt (16 bytes), record size (4, big-endian), keyid length (1) and
 *   keyid, which RFC 8291 section 4 makes the application server's ephemeral public key (65 bytes);
 * - RFC 8291 section 3.3–3.4: ecdh_secret = ECDH(ua_private, as_public); IKM = HKDF(salt = auth_secret,
 *   IKM = ecdh_secret, info = "WebPush: info" 0x00 ua_public as_public, 32 bytes);
 * - RFC 8188 section 2.2–2.3: CEK = HKDF(salt, IKM, "Content-Encoding: aes128gcm" 0x00, 16 bytes) and
 *   NONCE = HKDF(salt, IKM, "Content-Encoding: nonce" 0x00, 12 bytes) (one record: sequence number 0);
 * - AEAD_AES_128_GCM with a 16-byte tag; the plaintext ends with the padding delimiter 0x02 (the last and
 *   only record) followed by zero or more 0x00 bytes (RFC 8188 section 2).
 * Throws (with what was wrong) on anything else.
 */
export function decryptPushBody(
  body: Buffer,
  ua: { privateKey: Buffer; publicKey: Buffer; authSecret: Buffer },
): { plaintext: Buffer; keys: PushKeys; recordSize: number } {
  if (body.length < 21) throw new Error('cuerpo más corto que la cabecera de aes128gcm');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65)
    throw new Error(`keyid de ${idlen} bytes; RFC 8291 pide la clave pública del servidor (65)`);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (recordSize < 18) throw new Error(`tamaño de registro ${recordSize} menor que 18`);
  if (record.length > recordSize) throw new Error('más de un registro: RFC 8291 envía uno solo');
  if (record.length < 17) throw new Error('registro más corto que la etiqueta y el delimitador');
  const agreement = createECDH('prime256v1');
  agreement.setPrivateKey(ua.privateKey);
  const ecdhSecret = agreement.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'latin1'), ua.publicKey, asPublic]);
  const ikm = hkdf(ua.authSecret, ecdhSecret, keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0', 'latin1'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0', 'latin1'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Error('falta el delimitador 0x02 del último registro');
  return {
    plaintext: padded.subarray(0, end),
    keys: { ecdhSecret, ikm, prk, cek, nonce },
    recordSize,
  };
}

export interface VapidCheck {
  ok: boolean;
  /** Why it was refused (Spanish), when it was. */
  problem?: string;
  /** The `k` of the header: the application server's public key, base64url. */
  k?: string;
  claims?: { aud?: unknown; exp?: unknown; sub?: unknown };
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. The JWT's header says ES256; its signature (JWS,
 * r‖s, 64 bytes) verifies with k (an uncompressed P-256 point) over "header.payload"; `aud` is the push
 * resource's origin, `exp` is in the future and no more than 24 hours away, `sub` is present; and k is the
 * key the portal publishes, when `expectedKey` is given.
 */
export function verifyVapid(
  header: string | undefined,
  audience: string,
  expectedKey: string | null,
  nowSeconds = Math.floor(Date.now() / 1000),
): VapidCheck {
  const match = /^vapid\s+(?:t=([^,\s]+)\s*,\s*k=([^,\s]+)|k=([^,\s]+)\s*,\s*t=([^,\s]+))\s*$/i.exec(
    header ?? '',
  );
  if (!match) return { ok: false, problem: 'falta la cabecera Authorization: vapid t=…, k=…' };
  const token = match[1] ?? match[4]!;
  const k = match[2] ?? match[3]!;
  const fail = (problem: string, claims?: VapidCheck['claims']) => ({ ok: false, problem, k, claims });
  const parts = token.split('.');
  if (parts.length !== 3) return fail('el token no es un JWT');
  const [head, body, signature] = parts as [string, string, string];
  let claims: VapidCheck['claims'];
  let alg: unknown;
  try {
    alg = (JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as VapidCheck['claims'];
  } catch {
    return fail('el JWT no se lee');
  }
  if (alg !== 'ES256') return fail(`alg ${String(alg)}; se espera ES256`, claims);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return fail('k no es un punto P-256 sin comprimir', claims);
  let valid = false;
  try {
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
      format: 'jwk',
    });
    valid = verify(
      'sha256',
      Buffer.from(`${head}.${body}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    valid = false;
  }
  if (!valid) return fail('la firma ES256 no verifica con k', claims);
  if (claims?.aud !== audience) return fail(`aud ${String(claims?.aud)}; se espera ${audience}`, claims);
  const exp = claims?.exp;
  if (typeof exp !== 'number' || exp <= nowSeconds) return fail('exp vencido o ausente', claims);
  if (exp > nowSeconds + 24 * 3600) return fail('exp a más de 24 horas', claims);
  if (typeof claims?.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
    return fail('sub ausente (mailto: o https:)', claims);
  if (expectedKey !== null && k !== expectedKey) return fail('k no es la clave VAPID del portal', claims);
  return { ok: true, k, claims };
}

/** A device as a browser subscribes it. */
export interface PushSubscriptionJson {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  endpoint: string;
  /** What the receiver answered. */
  status: number;
  headers: { ttl?: string; urgency?: string; topic?: string; contentEncoding?: string };
  vapid: VapidCheck;
  /** The decrypted JSON; null when the body did not decrypt (`error`). */
  payload: unknown;
  /** The decrypted bytes, as text. */
  plaintext: string | null;
  error?: string;
  /** The encrypted body's size in bytes. */
  bytes: number;
  at: number;
}

interface Device {
  ecdh: ECDH;
  publicKey: Buffer;
  authSecret: Buffer;
}

export async function startPushReceiver(
  options: { tls?: { key: string; cert: string }; port?: number; delayMs?: number } = {},
) {
  const devices = new Map<string, Device>();
  const answers = new Map<string, number[]>();
  const served = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const state = { vapidKey: null as string | null };
  let origin = '';

  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${origin}${req.url ?? '/'}`;
      const device = devices.get(endpoint);
      if (req.method !== 'POST' || !device) {
        res.statusCode = 404;
        res.end();
        return;
      }
      const body = Buffer.concat(chunks);
      const vapid = verifyVapid(req.headers.authorization, origin, state.vapidKey);
      const push: ReceivedPush = {
        endpoint,
        status: 201,
        headers: {
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          topic: req.headers.topic as string | undefined,
          contentEncoding: req.headers['content-encoding'],
        },
        vapid,
        payload: null,
        plaintext: null,
        bytes: body.length,
        at: Date.now(),
      };
      try {
        if (push.headers.contentEncoding !== 'aes128gcm') throw new Error('Content-Encoding no es aes128gcm');
        const { plaintext } = decryptPushBody(body, {
          privateKey: device.ecdh.getPrivateKey(),
          publicKey: device.publicKey,
          authSecret: device.authSecret,
        });
        push.plaintext = plaintext.toString('utf8');
        push.payload = JSON.parse(push.plaintext);
      } catch (err) {
        push.error = (err as Error).message;
      }
      if (!vapid.ok) push.status = 401;
      else if (push.error) push.status = 400;
      else {
        const n = served.get(endpoint) ?? 0;
        served.set(endpoint, n + 1);
        const list = answers.get(endpoint) ?? [201];
        push.status = list[Math.min(n, list.length - 1)] ?? 201;
      }
      // Recorded as received at once: a sender that dies while the answer is held has still pushed it.
      received.push(push);
      const answer = () => {
        res.statusCode = push.status;
        if (push.status === 201) res.setHeader('location', `${endpoint}/mensajes/${randomUUID()}`);
        res.end();
      };
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    origin,
    port,
    received,
    /** The portal's VAPID public key (GET /api/push/clave); pushes signed with another are refused. */
    get vapidKey() {
      return state.vapidKey;
    },
    set vapidKey(key: string | null) {
      state.vapidKey = key;
    },
    /** A new device: a P-256 key pair and a 16-byte secret, as a browser's PushManager.subscribe() makes. */
    subscribe(): PushSubscriptionJson {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const endpoint = `${origin}/push/${randomUUID()}`;
      devices.set(endpoint, { ecdh, publicKey, authSecret });
      return {
        endpoint,
        expirationTime: null,
        keys: { p256dh: b64url(publicKey), auth: b64url(authSecret) },
      };
    },
    /** The statuses to answer this device's pushes with, in turn (the last repeats); 201 when none. */
    answer(endpoint: string, statuses: number[]) {
      answers.set(endpoint, statuses);
      served.set(endpoint, 0);
    },
    /** The pushes one device received, in order. */
    pushesTo(endpoint: string): ReceivedPush[] {
      return received.filter((p) => p.endpoint === endpoint);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type PushReceiver = Awaited<ReturnType<typeof startPushReceiver>>;
