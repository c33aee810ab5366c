import type { Invalidation } from '../db/invalidation.ts';
import type { ClientRow, UserRow } from '../db/principal.ts';

/** What the guard needs of a session, kept between requests (decision 0071). */
export interface CachedSession {
  id: string;
  userId: number;
  xsrfToken: string;
  createdAt: Date;
  /** Moved forward (in memory first) when the sliding expiry is written, at most once a minute. */
  lastSeenAt: Date;
  expiresAt: Date;
  user: Readonly<UserRow>;
  client: Readonly<ClientRow> | null;
  weeks: { hasAny: boolean; inside: boolean };
  /** The last business date (YYYY-MM-DD) through which `weeks.inside` holds; null: for good. */
  weeksThrough: string | null;
  /**
   * A buyer's sidebar (assigned active products per category), once a request of the session has read it
   * (decision 0075): dropped with the entry by any change to the user's assignments ('u') or to the
   * client's products and categories ('c').
   */
  sidebar?: readonly SidebarCategory[];
  /**
   * An authorizer's delegators on one business date (decision 0080), once a request of the session has read
   * them: dropped with the entry by any change to the user's delegations or to a delegator's row ('u').
   */
  acting?: KeptActing;
}

/** Whom the session's user acts for on `day`: active authorizers of the client who delegated to them. */
export interface KeptActing {
  day: string;
  delegators: readonly Delegator[];
}

export interface Delegator {
  id: number;
  nombre: string;
  rol: number;
  hasta: string;
}

/** A request's session in the principal cache, where what it reads once is kept (decisions 0075, 0080). */
export interface KeptSession {
  cache: PrincipalCache;
  sessionId: string;
}

/** One category of a buyer's sidebar: its products assigned to the buyer and active. */
export interface SidebarCategory {
  id: number;
  nombre: string;
  icono: string;
  productos: number;
}

/** How many sessions one process keeps; past it the oldest entry goes. */
const MAX_ENTRIES = 50_000;

/** How many recently changed keys are remembered for reads still in flight; past it, a flush. */
const MAX_CHANGED_KEYS = 10_000;

/**
 * Session id → the session with its user, client and access-week state, indexed by user and client so that
 * an announced change drops exactly the entries it touches. `epoch` counts the changes and flushes: a
 * database read that began before a change to its session, user or client (or before a flush) is not
 * stored after it (`set` with the epoch the read started in), since it may hold the old state.
 */
export class PrincipalCache {
  private readonly sessions = new Map<string, CachedSession>();
  private readonly byUser = new Map<number, Set<string>>();
  private readonly byClient = new Map<number, Set<string>>();
  /** 's:<id>', 'u:<id>', 'c:<id>' → the epoch of its latest change. */
  private readonly changedAt = new Map<string, number>();
  private flushedAt = 0;
  epoch = 0;
  hits = 0;
  misses = 0;

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): CachedSession | undefined {
    return this.sessions.get(id);
  }

  /** Stores an entry read from the database, unless a change or a flush came since the read began. */
  set(entry: CachedSession, readInEpoch: number): void {
    if (this.changedSince(entry, readInEpoch)) return;
    this.drop(entry.id);
    if (this.sessions.size >= MAX_ENTRIES) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.sessions.set(entry.id, entry);
    index(this.byUser, entry.userId, entry.id);
    if (entry.client) index(this.byClient, entry.client.id, entry.id);
  }

  /** Whether a flush or a change to the entry's session, user or client came after `epoch`. */
  private changedSince(entry: CachedSession, epoch: number): boolean {
    if (this.flushedAt > epoch) return true;
    if ((this.changedAt.get(`s:${entry.id}`) ?? 0) > epoch) return true;
    if ((this.changedAt.get(`u:${entry.userId}`) ?? 0) > epoch) return true;
    return entry.client !== null && (this.changedAt.get(`c:${entry.client.id}`) ?? 0) > epoch;
  }

  /** The sidebar kept with a session, if a request of it has read one since the last change. */
  sidebarOf(id: string): readonly SidebarCategory[] | undefined {
    return this.sessions.get(id)?.sidebar;
  }

  /** The delegators kept with a session for business date `day`, if a request of it has read them. */
  actingOf(id: string, day: string): readonly Delegator[] | undefined {
    const acting = this.sessions.get(id)?.acting;
    return acting?.day === day ? acting.delegators : undefined;
  }

  /**
   * Keeps what a request read from the database (a sidebar, the delegators of a day) with its session, unless
   * a change came since the read began.
   */
  keep(
    id: string,
    readInEpoch: number,
    part: Pick<CachedSession, 'sidebar'> | Pick<CachedSession, 'acting'>,
  ): void {
    const entry = this.sessions.get(id);
    if (!entry || this.changedSince(entry, readInEpoch)) return;
    Object.assign(entry, part);
  }

  apply(change: Invalidation): void {
    if (change.kind === 'all') {
      this.flush();
      return;
    }
    this.epoch++;
    if (this.changedAt.size + change.ids.length > MAX_CHANGED_KEYS) {
      this.flush();
      return;
    }
    for (const raw of change.ids) {
      this.changedAt.set(`${change.kind}:${raw}`, this.epoch);
      if (change.kind === 's') {
        this.drop(raw);
        continue;
      }
      const key = Number(raw);
      const ids = (change.kind === 'u' ? this.byUser : this.byClient).get(key);
      if (ids) for (const id of [...ids]) this.drop(id);
    }
  }

  /** Forgets everything (listening started or stopped). */
  flush(): void {
    this.epoch++;
    this.flushedAt = this.epoch;
    this.changedAt.clear();
    this.clear();
  }

  private clear(): void {
    this.sessions.clear();
    this.byUser.clear();
    this.byClient.clear();
  }

  private drop(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    unindex(this.byUser, entry.userId, id);
    if (entry.client) unindex(this.byClient, entry.client.id, id);
  }
}

function index(map: Map<number, Set<string>>, key: number, id: string): void {
  let ids = map.get(key);
  if (!ids) {
    ids = new Set();
    map.set(key, ids);
  }
  ids.add(id);
}

function unindex(map: Map<number, Set<string>>, key: number, id: string): void {
  const ids = map.get(key);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) map.delete(key);
}
