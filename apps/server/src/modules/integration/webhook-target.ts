import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { WEBHOOK_TIMEOUT_MS } from '@portal/shared/domain/integration';
import ipaddr from 'ipaddr.js';
import { MSG } from '../../messages.ts';

/** Where webhooks may go: https only (plain http outside production), public addresses unless allowed. */
export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export type TargetRefusal = {
  code: 'WEBHOOK_HTTPS' | 'WEBHOOK_PRIVATE' | 'WEBHOOK_DNS' | 'WEBHOOK_CREDENTIALS';
  msg: string;
};

/**
 * The IPv4 address an IPv6 one carries, normalised before any range check (issue 38, finding 1): IPv4-mapped
 * `::ffff:a.b.c.d` (however the URL parser writes it: `::ffff:7f00:1`), the SIIT form `::ffff:0:a.b.c.d`,
 * IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, and 6to4 `2002:AABB:CCDD::/48`.
 */
function embeddedV4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const last = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return last();
    case '6to4':
      return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
    default:
      // IPv4-compatible (deprecated): the first 96 bits are zero; :: and ::1 are not addresses of a host.
      return p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1) ? last() : null;
  }
}

/**
 * Anything but a global unicast address — loopback, private, link-local, carrier-grade NAT, documentation,
 * benchmarking, multicast, reserved, unspecified (`0.0.0.0`, `::`), Teredo — is not a public host; an IPv6
 * address that carries an IPv4 one is judged by that IPv4 address. Not an address at all: not public.
 */
export function isPrivateAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v4 = embeddedV4(address as ipaddr.IPv6);
  if (v4) return v4.range() !== 'unicast';
  return address.range() !== 'unicast';
}

/** The scheme rule: https, or http where the policy allows it (development and tests). */
export function schemeRefusal(url: URL, policy: TargetPolicy): TargetRefusal | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && policy.allowHttp) return null;
  return { code: 'WEBHOOK_HTTPS', msg: MSG.webhookUrlHttps };
}

/**
 * Every address the host resolves to must be public (unless allowed): a name with one private address
 * is refused, since the connection could use it. Answers the addresses to connect to.
 */
export async function resolveTarget(
  url: URL,
  policy: TargetPolicy,
): Promise<
  { ok: true; addresses: { address: string; family: number }[] } | { ok: false; refusal: TargetRefusal }
> {
  const scheme = schemeRefusal(url, policy);
  if (scheme) return { ok: false, refusal: scheme };
  // A URL with a user or a password would send them to the receiver and keep them in the database.
  if (url.username || url.password)
    return { ok: false, refusal: { code: 'WEBHOOK_CREDENTIALS', msg: MSG.webhookUrlCredenciales } };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, refusal: { code: 'WEBHOOK_DNS', msg: MSG.webhookUrlNoResuelve } };
    }
  }
  if (addresses.length === 0)
    return { ok: false, refusal: { code: 'WEBHOOK_DNS', msg: MSG.webhookUrlNoResuelve } };
  if (!policy.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    return { ok: false, refusal: { code: 'WEBHOOK_PRIVATE', msg: MSG.webhookUrlPrivada } };
  return { ok: true, addresses };
}

/** What one POST came to: a 2xx, another status, or no answer (`status` null; `error` says why, in Spanish). */
export interface PostOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * One POST, connecting only to an address checked now (the resolved address, not the one seen at
 * registration: a name that now points inside is refused), 10 s in all, no redirects followed. The webhook
 * deliveries and the Web Push sender (modules/push) both send through it.
 */
export async function postTo(
  url: URL,
  body: string | Buffer,
  headers: Record<string, string>,
  policy: TargetPolicy,
  signal: AbortSignal,
): Promise<PostOutcome> {
  const target = await resolveTarget(url, policy);
  // A target refused now (a private address, credentials, a name that no longer resolves) says no more
  // than that: the log must not tell an administrator what answers inside the network (issue 38).
  if (!target.ok) return { ok: false, status: null, error: MSG.entregaNoPermitida };
  const pinned = target.addresses[0]!;
  // The connection uses the address just checked, whatever the name resolves to a moment later.
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    const timeout = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
    const req = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup,
      agent: false,
      signal: AbortSignal.any([timeout, signal]),
    });
    req.on('response', (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      const settle = () => {
        if (status >= 200 && status < 300) resolve({ ok: true, status, error: null });
        else if (status >= 300 && status < 400)
          resolve({ ok: false, status, error: MSG.entregaRedireccion(status) });
        else resolve({ ok: false, status, error: MSG.entregaHttp(status) });
      };
      res.on('end', settle);
      res.on('error', settle);
    });
    req.on('error', () =>
      resolve({
        ok: false,
        status: null,
        error: timeout.aborted ? MSG.entregaSinRespuesta : MSG.entregaConexion,
      }),
    );
    req.end(body);
  });
}
