/**
 * Signing in with the company's own account (issue 40 item 4, decision 0120): the sign-in page asks whether
 * the typed e-mail's domain has a provider (`discoverSso`), sends the browser to it (`startSsoLogin`: the
 * authorization code flow with PKCE, state and nonce, recorded in `sso_logins` for the browser's session),
 * and the provider sends it back (`finishSsoLogin`): the flow is used once, the code exchanged, the ID token
 * checked, and the account of the verified e-mail — of that client, roles 1–3 — signed in like a password
 * sign-in, without the portal's second factor (the company's provider authenticated the person).
 */
import { randomBytes } from 'node:crypto';
import { ROLES } from '@portal/shared/domain/roles';
import { emailDomain, type SsoErrorCode } from '@portal/shared/domain/sso';
import { SsoDiscoverBody, type SsoDiscoverResponse } from '@portal/shared/schemas/sso';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { clients } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { encryptionRing } from '../../lib/keys.ts';
import { openWithRing, ssoContext } from '../../lib/secret-box.ts';
import { hashToken } from '../../lib/tokens.ts';
import { type AccessRefusal, accessRefusal } from '../../plugins/auth-guard.ts';
import { type SessionRow, type SessionStore, setSessionCookies } from '../../plugins/session.ts';
import * as authRepo from '../auth/auth.repository.ts';
import { openSignedInSession, throttleWindow, typedSubject } from '../auth/auth.service.ts';
import { createAccounts } from '../users/users.service.ts';
import { classifyFailure, discoverProvider, failureSummary, SSO_SCOPE } from './oidc.ts';
import * as repo from './sso.repository.ts';
import { returnUrl } from './sso.service.ts';

/** A sign-in with the provider must come back within this time, once. */
export const SSO_LOGIN_TTL_MS = 10 * 60_000;
/** Sign-ins started per typed e-mail and address, and per address, in the sign-in throttle's window. */
export const SSO_STARTS_PER_EMAIL_IP = 20;
export const SSO_STARTS_PER_IP = 300;

/** Where the browser goes after a refusal: the sign-in page, which words the code (SSO_ERROR_MESSAGES). */
export function refusalPath(code: SsoErrorCode): string {
  return `/login?sso=${code}`;
}

/** An SSO sign-in that ends on the sign-in page: the code it shows, what the log says, whose it was. */
class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly detail: string,
    readonly known: { userId?: number; idCliente?: number; correo?: string } = {},
  ) {
    super(detail);
    this.name = 'SsoRefusal';
  }
}

/** POST /api/sso/descubrir: an active client's active configuration covers the e-mail's domain. */
export async function discoverSso(deps: Pick<Deps, 'db'>, correo: string): Promise<SsoDiscoverResponse> {
  const found = await repo.findActiveConfigByDomain(deps.db, emailDomain(correo));
  return { sso: Boolean(found), obligatorio: found?.obligatorio ?? false };
}

/** Writes the refusal to the system log (never a code, a token or the secret) and answers where to go. */
async function refused(deps: Pick<Deps, 'db'>, request: FastifyRequest, err: SsoRefusal): Promise<string> {
  await audit(deps.db, {
    userId: err.known.userId ?? null,
    eventType: 'login_sso_fallido',
    description: `Inicio de sesión con la cuenta de la empresa fallido (${err.code}): ${err.detail}`,
    metadata: {
      motivo: err.code,
      ...(err.known.idCliente ? { id_cliente: err.known.idCliente } : {}),
      ...(err.known.correo ? { correo: err.known.correo } : {}),
      ...requestMeta(request),
    },
  });
  return refusalPath(err.code);
}

/** The browser's session the flow is bound to: the one it has, or a new anonymous one (cookies set). */
async function boundSession(
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  now: Date,
): Promise<SessionRow> {
  if (request.session) return request.session;
  const created = store.createAnonymous(now);
  const session = await store.load(created.token);
  if (!session) throw new SsoRefusal('rechazado', 'no se pudo abrir la sesión del navegador');
  setSessionCookies(request, reply, created);
  return session;
}

/**
 * GET /api/sso/iniciar?correo=…: the provider's authorization URL for the typed e-mail's client, or the
 * sign-in page with the reason (`/login?sso=<code>`). The flow is recorded for the browser's session.
 */
export async function startSsoLogin(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  correoRaw: string | undefined,
): Promise<string> {
  const now = deps.clock.now();
  const parsed = SsoDiscoverBody.safeParse({ correo: correoRaw ?? '' });
  const correo = parsed.success ? parsed.data.correo : '';
  const dominio = emailDomain(correo);
  try {
    if (!parsed.success) throw new SsoRefusal('no_disponible', 'correo no válido');
    const reservation = await authRepo.reserveAttempt(
      deps.db,
      'sso',
      typedSubject(deps, correo),
      request.ip,
      {
        ...throttleWindow(now),
        perSubjectAndIp: SSO_STARTS_PER_EMAIL_IP,
        perIp: SSO_STARTS_PER_IP,
      },
    );
    if (!reservation.ok) {
      if (!reservation.firstRefusal) return refusalPath('demasiados');
      throw new SsoRefusal('demasiados', `demasiados inicios desde esta dirección (dominio ${dominio})`);
    }
    const config = await repo.findActiveConfigByDomain(deps.db, dominio);
    if (!config) throw new SsoRefusal('no_disponible', `el dominio ${dominio} no tiene proveedor`);
    const known = { idCliente: config.idCliente };
    let provider: client.Configuration;
    try {
      provider = await discoverProvider(
        { emisor: config.emisor, idClienteOidc: config.idClienteOidc },
        deps.config,
        deps.clock,
      );
    } catch (err) {
      throw new SsoRefusal(
        classifyFailure(err, 'discovery'),
        `descubrimiento: ${failureSummary(err)}`,
        known,
      );
    }
    const session = await boundSession(store, request, reply, now);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    await repo.insertLogin(deps.db, {
      stateHash: hashToken(state),
      sessionId: session.id,
      idCliente: config.idCliente,
      correo,
      codeVerifier,
      nonce,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SSO_LOGIN_TTL_MS),
    });
    return client
      .buildAuthorizationUrl(provider, {
        redirect_uri: returnUrl(deps.config),
        scope: SSO_SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        login_hint: correo,
      })
      .toString();
  } catch (err) {
    if (err instanceof SsoRefusal) return refused(deps, request, err);
    throw err;
  }
}

/** The callback's parameters, as the provider sent them. */
export interface SsoCallbackQuery {
  state?: string;
  error?: string;
}

/**
 * GET /api/sso/retorno: signs in and answers '/', or answers the sign-in page with the reason. A state that
 * is unknown, expired, used or of another browser session signs nobody in.
 */
export async function finishSsoLogin(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  query: SsoCallbackQuery,
): Promise<string> {
  try {
    const user = await verifiedAccount(deps, request, query);
    await openSignedInSession(
      deps,
      store,
      request,
      reply,
      { sessionId: request.session!.id, subject: typedSubject(deps, user.usuario) },
      user,
      {
        description: `Inicio de sesión con la cuenta de la empresa: ${user.usuario}`,
        metadata: { metodo: 'sso' },
      },
    );
    return '/';
  } catch (err) {
    if (err instanceof SsoRefusal) return refused(deps, request, err);
    throw err;
  }
}

/** The account the provider's answer names, with every check passed; an SsoRefusal otherwise. */
async function verifiedAccount(deps: Deps, request: FastifyRequest, query: SsoCallbackQuery) {
  const now = deps.clock.now();
  const state = typeof query.state === 'string' ? query.state : '';
  const session = request.session;
  const flow =
    state && session ? await repo.consumeLogin(deps.db, hashToken(state), session.id, now) : undefined;
  if (!flow) {
    const idCliente = state ? await repo.loginClientOf(deps.db, hashToken(state)) : null;
    throw new SsoRefusal(
      'vencido',
      state ? 'estado desconocido, vencido, ya usado o de otra sesión del navegador' : 'sin estado',
      idCliente ? { idCliente } : {},
    );
  }
  const known = { idCliente: flow.idCliente };
  if (query.error) {
    const providerError = String(query.error)
      .replace(/[^\w.-]/g, '')
      .slice(0, 60);
    throw new SsoRefusal('rechazado', `el proveedor respondió ${providerError}`, known);
  }
  const config = await repo.findActiveConfig(deps.db, flow.idCliente);
  if (!config) throw new SsoRefusal('no_disponible', 'el cliente ya no tiene proveedor activo', known);
  let secreto: string;
  try {
    secreto = openWithRing(
      encryptionRing(deps.keys),
      config.secretoCifrado,
      ssoContext(config.idCliente),
    ).plaintext;
  } catch {
    deps.log.warn(
      { idCliente: config.idCliente },
      'El secreto de cliente del inicio de sesión con la cuenta de la empresa no se abre con ninguna clave configurada',
    );
    throw new SsoRefusal('rechazado', 'el secreto de cliente no se puede descifrar', known);
  }
  const claims = await providerClaims(deps, request, flow, config, secreto, state);
  return accountFor(deps, request, config, claims, now);
}

interface ProviderIdentity {
  email: string;
  nombre: string;
}

/** The code exchanged and the ID token checked: the person's verified e-mail of one of the client's domains. */
async function providerClaims(
  deps: Deps,
  request: FastifyRequest,
  flow: repo.SsoLoginRow,
  config: repo.SsoConfigRow,
  secreto: string,
  state: string,
): Promise<ProviderIdentity> {
  const known = { idCliente: config.idCliente };
  let provider: client.Configuration;
  try {
    provider = await discoverProvider(
      { emisor: config.emisor, idClienteOidc: config.idClienteOidc, secreto },
      deps.config,
      deps.clock,
    );
  } catch (err) {
    throw new SsoRefusal(classifyFailure(err, 'discovery'), `descubrimiento: ${failureSummary(err)}`, known);
  }
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const currentUrl = new URL(`${returnUrl(deps.config)}${query}`);
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(provider, currentUrl, {
      expectedState: state,
      expectedNonce: flow.nonce,
      pkceCodeVerifier: flow.codeVerifier,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    // A provider that keeps the e-mail out of the ID token gives it at its userinfo endpoint.
    if (
      typeof claims.email !== 'string' &&
      provider.serverMetadata().userinfo_endpoint &&
      tokens.access_token
    )
      claims = {
        ...claims,
        ...(await client.fetchUserInfo(provider, tokens.access_token, String(claims.sub))),
      };
  } catch (err) {
    throw new SsoRefusal(
      classifyFailure(err, 'exchange'),
      `intercambio del código: ${failureSummary(err)}`,
      known,
    );
  }
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  // Only a verified e-mail names an account: `email_verified` true, or, from Microsoft Entra ID (which sends
  // no email_verified), its `xms_edov` (the e-mail's domain is verified by the tenant's owner).
  const verified =
    claims.email_verified === true || (claims.email_verified === undefined && claims.xms_edov === true);
  if (!email || !verified)
    throw new SsoRefusal(
      'no_verificado',
      email ? `correo no verificado: ${email}` : 'el proveedor no envió el correo',
      { ...known, ...(email ? { correo: email } : {}) },
    );
  if (!config.dominios.includes(emailDomain(email)))
    throw new SsoRefusal('otro_dominio', `correo de otro dominio: ${email}`, { ...known, correo: email });
  return { email, nombre: nameOf(claims, email) };
}

function nameOf(claims: Record<string, unknown>, email: string): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');
  const name =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return (name || email.slice(0, email.lastIndexOf('@'))).slice(0, 200);
}

const REFUSAL_CODES: Record<AccessRefusal['code'], SsoErrorCode> = {
  USER_INACTIVE: 'usuario_inactivo',
  CLIENT_INACTIVE: 'cliente_inactivo',
  TEMPORARY_PASSWORD_EXPIRED: 'password_temporal',
  OUTSIDE_WEEK: 'fuera_de_semana',
};

/**
 * The client's account of that e-mail (roles 1–3; an active one, exactly one), created when the client
 * allows it and there is none; then the account rules of every sign-in (accessRefusal).
 */
async function accountFor(
  deps: Deps,
  request: FastifyRequest,
  config: repo.SsoConfigRow,
  identity: ProviderIdentity,
  now: Date,
) {
  const known = { idCliente: config.idCliente, correo: identity.email };
  const accounts = await repo.usersByEmail(deps.db, config.idCliente, identity.email);
  const active = accounts.filter((u) => u.activo);
  if (active.length > 1)
    throw new SsoRefusal('varias_cuentas', `${active.length} cuentas activas con el correo`, known);
  let user = active[0] ?? accounts[0];
  if (!user) {
    if (!config.altaAutomatica) throw new SsoRefusal('sin_cuenta', 'ninguna cuenta con el correo', known);
    user = await createOnFirstSignIn(deps, request, config.idCliente, identity);
  }
  const found = await authRepo.findUserWithClient(deps.db, user.id);
  if (!found) throw new SsoRefusal('sin_cuenta', 'la cuenta ya no existe', known);
  const refusal = await accessRefusal(deps, found.user, found.client, now);
  if (refusal)
    throw new SsoRefusal(REFUSAL_CODES[refusal.code], `${refusal.code}: ${found.user.usuario}`, {
      ...known,
      userId: found.user.id,
    });
  return found.user;
}

/** Usernames to try for a new account: the e-mail's local part, then with the domain's name, then numbered. */
function usernameCandidates(email: string): string[] {
  const at = email.lastIndexOf('@');
  const local =
    email
      .slice(0, at)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '')
      .slice(0, 60) || 'usuario';
  const label = (email.slice(at + 1).split('.')[0] ?? '').replace(/[^a-z0-9-]/g, '').slice(0, 30);
  const list = [local, ...(label ? [`${local}.${label}`] : [])];
  for (let n = 2; n <= 9; n++) list.push(`${local}${n}`);
  return list;
}

/**
 * Just-in-time creation (the client's `alta_automatica`): a rol-1 account of the client with its defaults,
 * through the users service's one way to create accounts, with no password and no welcome link. One at a
 * time per e-mail: a second callback for the same person finds the first one's account.
 */
async function createOnFirstSignIn(
  deps: Deps,
  request: FastifyRequest,
  idCliente: number,
  identity: ProviderIdentity,
) {
  const now = deps.clock.now();
  const userId = await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`sso-alta|${idCliente}|${identity.email}`}, 0))`,
    );
    const existing = await repo.usersByEmail(tx, idCliente, identity.email);
    if (existing[0]) return existing[0].id;
    const [row] = await tx.select().from(clients).where(sql`${clients.id} = ${idCliente}`).limit(1);
    if (!row) throw new SsoRefusal('sin_cuenta', 'el cliente ya no existe', { idCliente });
    const candidates = usernameCandidates(identity.email);
    const taken = await repo.takenUsernames(tx, candidates);
    const usuario =
      candidates.find((c) => !taken.has(c)) ?? `${candidates[0]}-${randomBytes(3).toString('hex')}`;
    const [created] = await createAccounts(
      tx,
      row,
      [
        {
          usuario,
          email: identity.email,
          nombre: identity.nombre,
          rol: ROLES.usuario,
          activo: true,
          limiteDeCompras: null,
          presupuestoDefault: null,
        },
      ],
      deps.config.PUBLIC_URL,
      now,
      { welcome: false },
    );
    if (!created)
      throw new SsoRefusal('rechazado', `el usuario ${usuario} se tomó al mismo tiempo`, { idCliente });
    await audit(tx, {
      userId: created.id,
      eventType: 'usuario_creado',
      description: `Usuario creado al entrar con la cuenta de la empresa: ${created.usuario} (rol ${created.rol})`,
      metadata: {
        id_usuario: created.id,
        id_cliente: idCliente,
        rol: created.rol,
        origen: 'sso',
        correo_bienvenida: false,
        ...requestMeta(request),
      },
    });
    return created.id;
  });
  const found = await authRepo.findUserWithClient(deps.db, userId);
  if (!found) throw new SsoRefusal('sin_cuenta', 'la cuenta creada no se encontró', { idCliente });
  return found.user;
}
