import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { businessDate, DEFAULT_BUSINESS_TZ } from '@portal/shared/domain/time';
import { and, eq, gt, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import type { InvalidationFeed } from '../db/invalidation.ts';
import { type ClientRow, type UserRow, weekStateColumns } from '../db/principal.ts';
import { clients, sessions, users } from '../db/schema/index.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { hashToken, newToken } from '../lib/tokens.ts';
import { MSG } from '../messages.ts';
import { type CachedSession, type KeptSession, PrincipalCache } from './session-cache.ts';

export const SESSION_COOKIE = 'portal_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

export interface WeekState {
  hasAny: boolean;
  inside: boolean;
}

/**
 * The signed-in user of a session, read in the same query as the session, or kept from an earlier request
 * while the database has announced no change to it (decision 0071).
 */
export interface SessionPrincipal {
  user: UserRow;
  client: ClientRow | null;
  /** The client's access-week state on the business date of `at`. */
  weeks: WeekState;
  /** When it was read. */
  at: Date;
}

export interface SessionRow {
  id: string;
  userId: number | null;
  xsrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  principal?: SessionPrincipal | null;
  /** The sign-in form's session: signed, not stored (nothing to destroy). */
  anonymous?: boolean;
  /** null = signed in; 'segundo_factor' = password right, second factor due (signed in for nothing else). */
  stage?: string | null;
  /** Wrong second-factor codes sent in this session. */
  failedCodes?: number;
}

/** How long a sign-in waiting for its second factor lives. */
export const SECOND_FACTOR_MINUTES = 5;

declare module 'fastify' {
  interface FastifyRequest {
    /** The database session of this request, when its cookie names a live one. */
    session: SessionRow | null;
  }
  interface FastifyContextConfig {
    /**
     * The XSRF token is checked only when a session exists: without one the route changes nothing and
     * answers like a wrong attempt (POST /api/login/2fa after its waiting session expired).
     */
    xsrfOnlyWithSession?: boolean;
    /**
     * The request is not the person's use of the portal: its session's sliding idle expiry (last_seen_at) is
     * not moved. The live updates' stream (GET /api/eventos) is open all day in a tab nobody attends, and
     * must not keep that tab signed in (decision 0116).
     */
    leavesIdleExpiry?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long a session without a signed-in user lives (the sign-in form's session). */
const ANONYMOUS_HOURS = 2;

/**
 * Cookies are Secure when the portal is published over HTTPS (PUBLIC_URL), or the request came over TLS
 * (directly, or as the configured proxy says). Published over HTTPS, the session cookie takes the
 * `__Host-` prefix: the browser then accepts it only Secure, for the whole site and from this very host,
 * so a sibling subdomain cannot plant one.
 */
function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https' || publishedOverHttps(request.server.config.PUBLIC_URL);
}

function publishedOverHttps(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

/** The session cookie's name for a deployment (see isSecure). */
export function sessionCookieName(publicUrl: string): string {
  return publishedOverHttps(publicUrl) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The session lookup of every API request, built once and run as a named prepared statement: neither the
 * query builder nor PostgreSQL's planner redo their work per request.
 */
function prepareSessionLookup(db: Db) {
  return db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      xsrfToken: sessions.xsrfToken,
      stage: sessions.stage,
      failedCodes: sessions.failedCodes,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      user: users,
      client: clients,
      weeks: weekStateColumns(sql.placeholder('today')),
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(clients, eq(clients.id, users.idCliente))
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
      ),
    )
    .limit(1)
    .prepare('portal_session_lookup');
}

const ANONYMOUS_PREFIX = 'a.';

function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** How often a session's sliding expiry (last_seen_at) is written at most. */
const TOUCH_EVERY_MS = 60_000;

export class SessionStore {
  private readonly lookup: ReturnType<typeof prepareSessionLookup>;
  /** Signed-in sessions with their principal, kept while the invalidation feed listens (decision 0071). */
  readonly cache = new PrincipalCache();
  /** Where announced changes come from; null when nothing is kept between requests. */
  feed: InvalidationFeed | null = null;

  constructor(
    private readonly db: Db,
    private readonly idleMinutes: number,
    private readonly maxHours: number,
    /** Business time zone, for the access-week state read with the session. */
    private readonly tz: string = DEFAULT_BUSINESS_TZ,
    /** Signs anonymous sessions (AppKeys.anonymousSession). */
    private readonly anonymousKey: Buffer = randomBytes(32),
    /** "Now" for expiry, idleness and today's access week (lib/clock.ts). */
    private readonly clock: Clock = systemClock,
    /** Keys of earlier SECRET_KEYs whose anonymous sessions still open (AppKeys.anonymousSessionPrevious). */
    private readonly previousAnonymousKeys: readonly Buffer[] = [],
  ) {
    this.lookup = prepareSessionLookup(db);
  }

  /**
   * Keeps sessions between requests from now on, as long as `feed` listens: every announced change drops
   * the entries it touches, and the cache is flushed whenever listening starts or stops.
   */
  useInvalidationFeed(feed: InvalidationFeed): void {
    this.feed = feed;
    feed.start({
      message: (change) => this.cache.apply(change),
      state: () => this.cache.flush(),
    });
  }

  /** Where a request's session keeps what it reads once (its sidebar, its delegators); none without a session. */
  kept(sessionId: string | undefined): KeptSession | undefined {
    return sessionId ? { cache: this.cache, sessionId } : undefined;
  }

  /** Whether sessions are being kept between requests right now (shown by /healthz). */
  get caching(): boolean {
    return this.feed?.listening ?? false;
  }

  /**
   * A kept session usable at `now` without the database: alive, not idle by what this process saw (another
   * instance may have seen it later, so an idle-looking entry is read again), and its week state still
   * holding on today's business date.
   */
  private usable(entry: CachedSession, now: Date): boolean {
    if (entry.expiresAt <= now) return false;
    if (entry.lastSeenAt.getTime() <= now.getTime() - this.idleMinutes * 60_000) return false;
    if (entry.weeks.hasAny && entry.weeksThrough !== null && businessDate(now, this.tz) > entry.weeksThrough)
      return false;
    return true;
  }

  /** The kept session of `id`, when the database has announced no change to it up to this moment. */
  private async cached(id: string, now: Date, touch: boolean): Promise<SessionRow | null> {
    const feed = this.feed;
    if (!feed?.listening) return null;
    const seen = this.cache.get(id);
    if (!seen || !this.usable(seen, now)) return null;
    // Every change committed before this request began has reached the cache once sync answers true. What
    // the cache then holds for the session is current: a change drops the entry, and a read is stored only
    // if no change overtook it. That may be a newer entry than the one seen (a concurrent request of the same
    // session read it again): it serves as well. Insisting on the same object made the concurrent requests
    // of one session miss one after another once any of them missed.
    if (!(await feed.sync())) return null;
    const entry = this.cache.get(id);
    if (!entry || !this.usable(entry, now)) return null;
    this.cache.hits++;
    if (touch) await this.touch(entry, now);
    return {
      id: entry.id,
      userId: entry.userId,
      xsrfToken: entry.xsrfToken,
      stage: null,
      failedCodes: 0,
      createdAt: entry.createdAt,
      lastSeenAt: entry.lastSeenAt,
      expiresAt: entry.expiresAt,
      principal: { user: entry.user, client: entry.client, weeks: entry.weeks, at: now },
    };
  }

  /** The sliding expiry, written at most once a minute per session (noted in memory before the write). */
  private async touch(entry: { id: string; lastSeenAt: Date }, now: Date): Promise<void> {
    if (now.getTime() - entry.lastSeenAt.getTime() <= TOUCH_EVERY_MS) return;
    entry.lastSeenAt = now;
    await this.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, entry.id));
  }

  /** Ends every session of these users at once (deactivation, password reset); `db` may be a transaction. */
  async endSessionsOfUsers(userIds: number[], db: Db | Tx = this.db): Promise<void> {
    if (userIds.length === 0) return;
    await db.delete(sessions).where(inArray(sessions.userId, userIds));
  }

  /**
   * A session that still works: signed in (not waiting for a second factor), neither expired nor idle past
   * the limit. The one definition of "open" for the confirmations' counts.
   */
  openCondition(now = this.clock.now()): SQL {
    return and(
      isNull(sessions.stage),
      gt(sessions.expiresAt, now),
      gt(sessions.lastSeenAt, new Date(now.getTime() - this.idleMinutes * 60_000)),
    )!;
  }

  /** The open sessions of these users: what a deactivation would end that still works. */
  async countOpenSessions(userIds: number[], db: Db | Tx = this.db, now = this.clock.now()): Promise<number> {
    if (userIds.length === 0) return 0;
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(and(inArray(sessions.userId, userIds), this.openCondition(now)));
    return row?.n ?? 0;
  }

  /** Ends every session of every user of a client (client deactivation); `db` may be a transaction. */
  async endSessionsOfClient(idCliente: number, db: Db | Tx = this.db): Promise<void> {
    await db
      .delete(sessions)
      .where(
        inArray(
          sessions.userId,
          db.select({ id: users.id }).from(users).where(sql`${users.idCliente} = ${idCliente}`),
        ),
      );
  }

  /**
   * A session for a visitor who is not signed in (the sign-in and recovery forms need an XSRF token): a
   * signed cookie `a.<issued>.<nonce>.<mac>` whose XSRF token is derived from it. Nothing is written, so
   * anonymous requests cannot fill the sessions table; any instance with the same key accepts it.
   */
  createAnonymous(now = this.clock.now()) {
    const body = `${now.getTime().toString(36)}.${randomBytes(18).toString('base64url')}`;
    const token = `${ANONYMOUS_PREFIX}${body}.${mac(this.anonymousKey, `sesion|${body}`)}`;
    const expiresAt = new Date(now.getTime() + Math.min(ANONYMOUS_HOURS, this.maxHours) * 3_600_000);
    return { token, xsrfToken: mac(this.anonymousKey, `xsrf|${body}`), expiresAt };
  }

  private loadAnonymous(token: string, now: Date): SessionRow | null {
    const parts = token.slice(ANONYMOUS_PREFIX.length).split('.');
    if (parts.length !== 3) return null;
    const [issued, nonce, signature] = parts as [string, string, string];
    const body = `${issued}.${nonce}`;
    // The current key, or one of a rotation's previous keys (a sign-in form opened before it).
    const key = [this.anonymousKey, ...this.previousAnonymousKeys].find((k) =>
      sameToken(signature, mac(k, `sesion|${body}`)),
    );
    if (!key) return null;
    const createdAt = new Date(Number.parseInt(issued, 36));
    const expiresAt = new Date(createdAt.getTime() + Math.min(ANONYMOUS_HOURS, this.maxHours) * 3_600_000);
    if (!(createdAt.getTime() <= now.getTime() + 60_000 && expiresAt > now)) return null;
    return {
      id: `${ANONYMOUS_PREFIX}${nonce}`,
      userId: null,
      xsrfToken: mac(key, `xsrf|${body}`),
      createdAt,
      lastSeenAt: now,
      expiresAt,
      principal: null,
      anonymous: true,
    };
  }

  /**
   * The live session of a cookie token, with its user, client and week state in the same query. `touch`
   * false: the read does not count as use (the sliding idle expiry stays where it was).
   */
  async load(token: string, { touch = true }: { touch?: boolean } = {}): Promise<SessionRow | null> {
    const now = this.clock.now();
    if (token.startsWith(ANONYMOUS_PREFIX)) return this.loadAnonymous(token, now);
    const id = hashToken(token);
    const kept = await this.cached(id, now, touch);
    if (kept) return kept;
    // A read that a change overtakes is not kept: the epoch moves with every announced change.
    const epoch = this.cache.epoch;
    const listening = this.feed?.listening ?? false;
    if (listening) this.cache.misses++;
    const [found] = await this.lookup.execute({
      id,
      now,
      idleSince: new Date(now.getTime() - this.idleMinutes * 60_000),
      today: businessDate(now, this.tz),
    });
    if (!found) return null;
    const { user, client, weeks, ...row } = found;
    const weekState = { hasAny: Boolean(weeks.hasAny), inside: Boolean(weeks.inside) };
    const principal: SessionPrincipal | null = user ? { user, client, weeks: weekState, at: now } : null;
    if (listening && user && row.userId !== null && row.stage === null) {
      const entry: CachedSession = {
        id: row.id,
        userId: row.userId,
        xsrfToken: row.xsrfToken,
        createdAt: row.createdAt,
        lastSeenAt: row.lastSeenAt,
        expiresAt: row.expiresAt,
        user: Object.freeze(user),
        client: client && Object.freeze(client),
        weeks: weekState,
        weeksThrough: weeks.through ?? null,
      };
      this.cache.set(entry, epoch);
      if (touch) await this.touch(entry, now);
      return { ...row, lastSeenAt: entry.lastSeenAt, principal };
    }
    if (touch) await this.touch(row, now);
    return { ...row, principal };
  }

  /** A new session (new id, new XSRF token); returns the cookie token. */
  async create(
    userId: number | null,
    meta: { ip: string; userAgent: string },
    /** `stage`: a sign-in waiting for its second factor (lives SECOND_FACTOR_MINUTES). */
    options: { stage?: string } = {},
  ) {
    const token = newToken();
    const xsrfToken = newToken();
    const hours = userId === null ? Math.min(ANONYMOUS_HOURS, this.maxHours) : this.maxHours;
    const ttlMs = options.stage ? SECOND_FACTOR_MINUTES * 60_000 : hours * 3_600_000;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + ttlMs);
    await this.db.insert(sessions).values({
      id: hashToken(token),
      createdAt: now,
      lastSeenAt: now,
      userId,
      xsrfToken,
      stage: options.stage ?? null,
      ip: meta.ip.slice(0, 100),
      userAgent: meta.userAgent.slice(0, 300),
      expiresAt,
    });
    return { token, xsrfToken, expiresAt };
  }

  async destroy(id: string): Promise<void> {
    if (id.startsWith(ANONYMOUS_PREFIX)) return;
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  async destroyAllOfUser(userId: number, exceptId?: string): Promise<void> {
    await this.db
      .delete(sessions)
      .where(
        exceptId
          ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${exceptId}`)
          : eq(sessions.userId, userId),
      );
  }

  async purgeExpired(): Promise<void> {
    await this.db.delete(sessions).where(lt(sessions.expiresAt, this.clock.now()));
  }
}

export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; xsrfToken: string; expiresAt: Date },
): void {
  const secure = isSecure(request);
  reply.setCookie(sessionCookieName(request.server.config.PUBLIC_URL), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: session.expiresAt,
  });
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookies(reply: FastifyReply): void {
  const secure = publishedOverHttps(reply.server.config.PUBLIC_URL);
  reply.clearCookie(sessionCookieName(reply.server.config.PUBLIC_URL), { path: '/', secure });
  reply.clearCookie(XSRF_COOKIE, { path: '/', secure });
}

/**
 * The path a request is served under: the matched route's pattern (the router decodes the URL, so
 * `/%61pi/x` reaches `/api/x`), or for an unmatched request its decoded path. Every "is this the API?"
 * decision uses this, never the raw URL's prefix.
 */
export function routePath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  const raw = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The versioned integration API (/api/v1/…): bearer tokens, never the session cookie. */
export function isBearerApiPath(path: string): boolean {
  return path.startsWith('/api/v1/');
}

/**
 * Loads the database session named by the cookie on API requests, and refuses state-changing API calls
 * whose X-XSRF-TOKEN header does not match the session's token (419).
 */
export function registerSession(app: FastifyInstance, store: SessionStore): void {
  app.decorateRequest('session', null);
  const cookieName = sessionCookieName(app.config.PUBLIC_URL);
  app.addHook('onRequest', async (request) => {
    const path = routePath(request);
    if (!path.startsWith('/api/') && !path.startsWith('/sanctum/')) return;
    // The versioned integration API authenticates by bearer token only: no cookie, so no XSRF (decision 0059).
    if (isBearerApiPath(path)) return;
    const token = request.cookies[cookieName];
    if (token && token.length <= 100)
      request.session = await store.load(token, {
        touch: !request.routeOptions.config?.leavesIdleExpiry,
      });
    if (SAFE_METHODS.has(request.method) || !path.startsWith('/api/')) return;
    if (!request.session && request.routeOptions.config?.xsrfOnlyWithSession) return;
    const header = request.headers[XSRF_HEADER];
    const sent = Array.isArray(header) ? header[0] : header;
    if (!request.session || !sent || !sameToken(sent, request.session.xsrfToken)) {
      throw new AppError(419, 'CSRF', MSG.csrfInvalido);
    }
  });

  app.get('/sanctum/csrf-cookie', { schema: { hide: true } }, async (request, reply) => {
    if (request.session) {
      // Re-send the current token (the cookie may have been cleared by the page).
      reply.setCookie(XSRF_COOKIE, request.session.xsrfToken, {
        path: '/',
        httpOnly: false,
        sameSite: 'lax',
        secure: isSecure(request),
        expires: request.session.expiresAt,
      });
      return reply.status(204).send();
    }
    setSessionCookies(request, reply, store.createAnonymous());
    return reply.status(204).send();
  });
}
