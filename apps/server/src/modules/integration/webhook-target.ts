import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { MSG } from '../../messages.ts';

/** Where webhooks may go: https only (plain http outside production), public addresses unless allowed. */
export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export type TargetRefusal = { code: 'WEBHOOK_HTTPS' | 'WEBHOOK_PRIVATE' | 'WEBHOOK_DNS'; msg: string };

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4(ip: string, base: string, bits: number): boolean {
  // Division, not bitwise operators (those are signed 32-bit in JavaScript).
  const block = 2 ** (32 - bits);
  return Math.floor(v4ToInt(ip) / block) === Math.floor(v4ToInt(base) / block);
}

/** Loopback, private, link-local, shared, documentation, multicast or reserved: not a public host. */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return V4_BLOCKED.some(([base, bits]) => inV4(ip, base, bits));
  if (!net.isIPv6(ip)) return true;
  const lower = ip.toLowerCase();
  // IPv4-mapped and -compatible forms carry an IPv4 address.
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPrivateAddress(mapped[1]!);
  if (lower === '::' || lower === '::1') return true;
  const first = Number.parseInt(lower.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (lower.startsWith('64:ff9b:') || lower.startsWith('2001:db8:')) return true; // NAT64, documentation
  return false;
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
