/**
 * The portal's side of OpenID Connect with a client's own provider (decision 0120), through `openid-client`:
 * discovery, the authorization URL (code flow, PKCE S256, state, nonce) and the code exchange with the ID
 * token's checks. Every request to the provider goes through `providerFetch`: only to addresses checked at
 * that moment (public ones unless SSO_ALLOW_PRIVATE; the webhooks' guard, modules/integration/webhook-target.ts),
 * connected to the very address checked, within PROVIDER_TIMEOUT_MS, no redirects followed, at most
 * PROVIDER_MAX_BYTES read.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import * as client from 'openid-client';
import type { Config } from '../../config.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { MSG } from '../../messages.ts';
import { resolveTarget, type TargetPolicy } from '../integration/webhook-target.ts';

/** The longest the portal waits for any one answer of a provider. */
export const PROVIDER_TIMEOUT_MS = 5_000;
/** A provider's answer (discovery, keys, tokens) larger than this is not read. */
const PROVIDER_MAX_BYTES = 1_000_000;
/** What the portal asks for: the person's identity, e-mail (and whether it is verified) and name. */
export const SSO_SCOPE = 'openid email profile';

/** Where the provider may be: https to public addresses; with SSO_ALLOW_PRIVATE, private ones and http too. */
export function providerPolicy(config: Pick<Config, 'SSO_ALLOW_PRIVATE'>): TargetPolicy {
  return { allowHttp: config.SSO_ALLOW_PRIVATE, allowPrivate: config.SSO_ALLOW_PRIVATE };
}

/** The provider could not be reached (refused address, no connection, no answer in time, too large). */
export class ProviderUnreachable extends Error {
  constructor(reason: string) {
    super(`Proveedor de identidad inalcanzable: ${reason}`);
    this.name = 'ProviderUnreachable';
  }
}

/** Why an issuer may not be saved (its shape, its scheme, where its name points), or null. */
export async function issuerRefusal(
  emisor: string,
  config: Pick<Config, 'SSO_ALLOW_PRIVATE'>,
): Promise<string | null> {
  const url = new URL(emisor);
  if (url.username || url.password || url.search || url.hash) return MSG.ssoEmisorForma;
  const target = await resolveTarget(url, providerPolicy(config));
  if (target.ok) return null;
  switch (target.refusal.code) {
    case 'WEBHOOK_PRIVATE':
      return MSG.ssoEmisorPrivado;
    case 'WEBHOOK_DNS':
      return MSG.ssoEmisorNoResuelve;
    case 'WEBHOOK_CREDENTIALS':
      return MSG.ssoEmisorForma;
    default:
      return MSG.ssoEmisorHttps;
  }
}

function bodyOf(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new ProviderUnreachable('cuerpo de solicitud no admitido');
}

/**
 * The fetch openid-client uses for every request to the provider: each request resolves the host and
 * connects only to an address the policy allows, the one just checked (a name that starts pointing inside
 * the network is refused at the next request).
 */
export function providerFetch(policy: TargetPolicy): client.CustomFetch {
  return async (input, options) => {
    const url = new URL(input);
    const target = await resolveTarget(url, policy);
    if (!target.ok) throw new ProviderUnreachable(target.refusal.code);
    const pinned = target.addresses[0]!;
    const pinnedLookup: LookupFunction = (_host, lookupOptions, callback) => {
      if ((lookupOptions as { all?: boolean }).all)
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const body = bodyOf(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (body) headers['content-length'] = String(body.length);
    const timeout = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(url, {
        method: options.method,
        headers,
        lookup: pinnedLookup,
        agent: false,
        signal,
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > PROVIDER_MAX_BYTES) {
            req.destroy();
            reject(new ProviderUnreachable('respuesta demasiado grande'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of [value].flat()) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || status < 200;
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        });
        res.on('error', () => reject(new ProviderUnreachable('respuesta interrumpida')));
      });
      req.on('error', () =>
        reject(new ProviderUnreachable(timeout.aborted ? 'sin respuesta a tiempo' : 'sin conexión')),
      );
      req.end(body);
    });
  };
}

export interface ProviderSettings {
  emisor: string;
  idClienteOidc: string;
  /** Only the code exchange needs it (client_secret_basic); the authorization URL does not. */
  secreto?: string;
}

/**
 * The provider's configuration, discovered now (no cache: a sign-in makes a discovery request when it starts
 * and another at the callback). The ID token's times are judged by the portal's clock (`clock`, which a test
 * may move): openid-client's own clock is the machine's, so the difference is given as its clock skew. The
 * client authenticates at the token endpoint with `client_secret_basic`, or `client_secret_post` when the
 * provider offers only that.
 */
export async function discoverProvider(
  settings: ProviderSettings,
  config: Pick<Config, 'SSO_ALLOW_PRIVATE'>,
  clock: Clock,
): Promise<client.Configuration> {
  const issuer = new URL(settings.emisor);
  const insecure = issuer.protocol === 'http:' && config.SSO_ALLOW_PRIVATE;
  const fetcher = providerFetch(providerPolicy(config));
  const metadata = {
    [client.clockSkew]: Math.round((clock.ms() - systemClock.ms()) / 1000),
    [client.clockTolerance]: 30,
  };
  const discovered = await client.discovery(issuer, settings.idClienteOidc, metadata, client.None(), {
    [client.customFetch]: fetcher,
    timeout: PROVIDER_TIMEOUT_MS / 1000,
    execute: insecure ? [client.allowInsecureRequests] : [],
  });
  if (settings.secreto === undefined) return discovered;
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
  const postOnly =
    Array.isArray(methods) &&
    !methods.includes('client_secret_basic') &&
    methods.includes('client_secret_post');
  const configured = new client.Configuration(
    discovered.serverMetadata(),
    settings.idClienteOidc,
    metadata,
    postOnly ? client.ClientSecretPost(settings.secreto) : client.ClientSecretBasic(settings.secreto),
  );
  configured[client.customFetch] = fetcher;
  configured.timeout = PROVIDER_TIMEOUT_MS / 1000;
  if (insecure) client.allowInsecureRequests(configured);
  return configured;
}

/** How a failure with the provider reads on the sign-in page (`/login?sso=<code>`). */
export type ProviderFailure = 'proveedor' | 'vencido' | 'rechazado';

/** The first error of a chain (its causes) that matches. */
function inChain(err: unknown, match: (e: Error & { code?: unknown }) => boolean): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (match(e as Error & { code?: unknown })) return true;
  return false;
}

/**
 * The provider could not be reached or did not answer as a provider (`proveedor`), the ID token's time is
 * past (`vencido`), or it refused or sent something the checks reject (`rechazado`): a wrong state, a used
 * code, a wrong nonce, issuer, audience or signature.
 */
export function classifyFailure(err: unknown, stage: 'discovery' | 'exchange'): ProviderFailure {
  if (inChain(err, (e) => e instanceof ProviderUnreachable)) return 'proveedor';
  if (stage === 'discovery') return 'proveedor';
  if (inChain(err, (e) => e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')) return 'vencido';
  return 'rechazado';
}

/** A short description of a failure for the system log: the error's name and code, never tokens or codes. */
export function failureSummary(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const oauthError = (e as { error?: unknown }).error;
    parts.push(
      [e.name, typeof code === 'string' ? code : null, typeof oauthError === 'string' ? oauthError : null]
        .filter(Boolean)
        .join(' '),
    );
  }
  return parts.join(' ← ').slice(0, 300) || 'desconocido';
}
