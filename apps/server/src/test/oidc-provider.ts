/// <reference path="./oidc-provider-module.d.ts" />
/**
 * An OpenID Connect provider for the tests (decision 0120): a real `oidc-provider` 9 on 127.0.0.1 (http, so
 * the portal under test runs with SSO_ALLOW_PRIVATE), with one confidential client (client_secret_basic or
 * client_secret_post, PKCE required) and the accounts a test gives it. Its sign-in pages are the library's
 * development pages (`input[name=login]`, `input[name=password]`, «Sign-in»): any password signs in the
 * account named in «login»; consent is granted by itself. Startable from any Node script (the browser
 * tests use it too): it needs nothing of vitest.
 *
 * - `startTestProvider({ port?, clientId, clientSecret, redirectUri, idTokenTtlSeconds?, claimsIn? })`
 *   → `{ issuer, setAccount(id, claims), signIn(authorizationUrl, accountId?), close() }`;
 * - `setAccount('ana@empresa.mx', { email: 'ana@empresa.mx', email_verified: true, name: 'Ana' })`: the
 *   claims the account gets (in the ID token, or only at userinfo with `claimsIn: 'userinfo'`); change them
 *   at any time, the next sign-in reads them;
 * - `signIn(url)`: what a browser does from the portal's redirect to the provider until the provider sends
 *   it back — follows the redirects with a cookie jar and fills the sign-in form with `accountId` (default:
 *   the URL's `login_hint`) — and answers the callback URL (at `redirectUri`, with `code`, `state` and `iss`,
 *   or `error`).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface TestProviderOptions {
  /** The port to listen on (default: any free one). */
  port?: number;
  clientId: string;
  clientSecret: string;
  /** Where the provider may send the browser back: the portal's PUBLIC_URL + /api/sso/retorno. */
  redirectUri: string | string[];
  /** How long its ID tokens are valid (default an hour). */
  idTokenTtlSeconds?: number;
  /** Where the account's claims go: the ID token (default) or only the userinfo endpoint. */
  claimsIn?: 'id_token' | 'userinfo';
}

/** What the provider says about an account (standard claims, plus Microsoft's `xms_edov` if a test wants it). */
export type AccountClaims = Record<string, unknown> & {
  email?: string;
  email_verified?: boolean;
  name?: string;
};

export interface TestProvider {
  /** The issuer identifier: `http://127.0.0.1:<port>`. */
  issuer: string;
  setAccount(id: string, claims: AccountClaims): void;
  signIn(authorizationUrl: string | URL, accountId?: string): Promise<URL>;
  close(): Promise<void>;
}

/** A signing key for the ID tokens (RS256, what clients expect by default). */
function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: 'prueba', use: 'sig', alg: 'RS256' };
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const accounts = new Map<string, AccountClaims>();
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUris = [options.redirectUri].flat();

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey()] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified', 'xms_edov'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // The claims of the scopes granted go into the ID token too (as Google and Microsoft put the e-mail there).
    conformIdTokenClaims: options.claimsIn === 'userinfo',
    features: { devInteractions: { enabled: true }, userinfo: { enabled: true } },
    pkce: { required: () => true },
    ttl: {
      IdToken: options.idTokenTtlSeconds ?? 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    issueRefreshToken: async () => false,
    async findAccount(_ctx: unknown, id: string) {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ ...claims, sub: id }) };
    },
    // Consent is the test client's by default: the grant is made with the first sign-in.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const clientId = oidc.client?.clientId;
      const accountId = oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const existing = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      if (existing) return oidc.provider.Grant.find(existing);
      const grant = new oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified', 'xms_edov', 'name', 'given_name', 'family_name']);
      await grant.save();
      return grant;
    },
  });
  handler = provider.callback();

  return {
    issuer,
    setAccount(id, claims) {
      accounts.set(id, claims);
    },
    signIn: (authorizationUrl, accountId) => browse(new URL(authorizationUrl), redirectUris, accountId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser at the provider: from the authorization URL, through the sign-in form, until a redirect to one
 * of `redirectUris`, which it answers without following.
 */
async function browse(start: URL, redirectUris: string[], accountId?: string): Promise<URL> {
  const jar = new Map<string, string>();
  const login = accountId ?? start.searchParams.get('login_hint') ?? '';
  let next: { url: URL; method: 'GET' | 'POST'; body?: string } = { url: start, method: 'GET' };
  for (let step = 0; step < 12; step++) {
    const res = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: {
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: next.body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1]!).getTime() < Date.now(),
      );
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const url = new URL(location, next.url);
      if (redirectUris.some((uri) => url.href.startsWith(uri))) return url;
      next = { url, method: 'GET' };
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && next.url.pathname.startsWith('/interaction/')) {
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      const body =
        prompt === 'login'
          ? new URLSearchParams({ prompt: 'login', login, password: 'cualquiera' })
          : new URLSearchParams({ prompt: prompt ?? 'consent' });
      next = { url: new URL(next.url.pathname, next.url), method: 'POST', body: body.toString() };
      continue;
    }
    throw new Error(
      `El proveedor de prueba respondió ${res.status} en ${next.url.pathname}: ${html.slice(0, 300)}`,
    );
  }
  throw new Error('El proveedor de prueba no regresó al portal');
}
