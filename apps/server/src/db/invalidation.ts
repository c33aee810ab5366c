import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.ts';

/**
 * The channel on which the database announces changes to the rows the session guard keeps in memory (users,
 * clients, access weeks, sessions). Triggers send them (migration 0021, decision 0071), in the changing
 * transaction, so a message is delivered at its commit and never for a change that was rolled back. The live
 * updates' changes (orders, the bell; migration 0041, decision 0116) come on the same channel, so one
 * connection per process listens for both.
 */
export const PRINCIPAL_CHANNEL = 'portal_principal';

/** What a message names: some users, clients (or their weeks), sessions, or everything. */
export type Invalidation = { kind: 'u' | 'c' | 's'; ids: string[] } | { kind: 'all' };

export function parseInvalidation(payload: string): Invalidation {
  const kind = payload[0];
  if ((kind === 'u' || kind === 'c' || kind === 's') && payload[1] === ':') {
    return { kind, ids: payload.slice(2).split(',') };
  }
  return { kind: 'all' };
}

/** An order as the live updates announce it: enough to tell who may see it, nothing of its contents. */
export interface LiveOrder {
  id: number;
  clientId: number;
  buyerId: number;
}

/**
 * What the live updates hear on the same channel (migration 0041, decision 0116): orders inserted or
 * updated ('p:<id>:<client>:<buyer>;…', or 'p:*' when one statement changed many), the users whose bell
 * changed ('a:<user ids>', or 'a:*'), and the buyers whose budget figures changed — a top-up decided, a
 * transfer between áreas ('b:<user ids>', or 'b:*'; sent by `announceBudgets`, decision 0123). 'all': too
 * many to name. These never concern the session cache.
 */
export type LiveChange =
  | { kind: 'pedido'; orders: LiveOrder[] | 'all' }
  | { kind: 'aviso'; userIds: number[] | 'all' }
  | { kind: 'presupuesto'; userIds: number[] | 'all' };

const WHOLE_NUMBER = /^\d{1,10}$/;

/** A live update's message, or null when the payload is the session cache's (or anything else). */
export function parseLiveChange(payload: string): LiveChange | null {
  const kind = payload.slice(0, 2);
  if (kind !== 'p:' && kind !== 'a:' && kind !== 'b:') return null;
  const body = payload.slice(2);
  if (kind === 'a:' || kind === 'b:') {
    const ids = body.split(',');
    const userIds = ids.every((id) => WHOLE_NUMBER.test(id)) ? ids.map(Number) : 'all';
    return kind === 'a:' ? { kind: 'aviso', userIds } : { kind: 'presupuesto', userIds };
  }
  const entries = body.split(';').map((entry) => entry.split(':'));
  if (!entries.every((parts) => parts.length === 3 && parts.every((part) => WHOLE_NUMBER.test(part))))
    return { kind: 'pedido', orders: 'all' };
  return {
    kind: 'pedido',
    orders: entries.map(([id, clientId, buyerId]) => ({
      id: Number(id),
      clientId: Number(clientId),
      buyerId: Number(buyerId),
    })),
  };
}

export interface FeedHandlers {
  message(change: Invalidation): void;
  /** Called when listening starts (true) and whenever it stops (false): the cache is flushed both times. */
  state(listening: boolean): void;
}

/**
 * Another consumer of the same listening connection (the live updates' hub, decision 0116): it hears the
 * live updates' messages, which the session cache never sees, and after the cache every invalidation and
 * every change of state.
 */
export interface FeedListener {
  live?(change: LiveChange): void;
  invalidation?(change: Invalidation): void;
  state?(listening: boolean): void;
}

/** Hands each payload and each change of state to the session cache's handlers, then to the listeners. */
class FeedFanOut {
  handlers: FeedHandlers | null = null;
  private readonly listeners = new Set<FeedListener>();

  constructor(private readonly log: FeedLog) {}

  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(payload: string): void {
    const live = parseLiveChange(payload);
    if (live) {
      this.each((l) => l.live?.(live));
      return;
    }
    const change = parseInvalidation(payload);
    this.handlers?.message(change);
    this.each((l) => l.invalidation?.(change));
  }

  state(listening: boolean): void {
    this.handlers?.state(listening);
    this.each((l) => l.state?.(listening));
  }

  /** A listener's failure is logged and never reaches the connection (nor the other listeners). */
  private each(call: (listener: FeedListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (err) {
        this.log.warn({ err }, 'aviso de cambios: falló quien lo escuchaba');
      }
    }
  }
}

/**
 * The changes announced by the database, as this process receives them. While `listening` is false the
 * process may have missed some: nothing kept in memory may be trusted.
 */
export interface InvalidationFeed {
  readonly listening: boolean;
  start(handlers: FeedHandlers): void;
  /** Adds a consumer of the same connection's messages; returns how to remove it. */
  subscribe(listener: FeedListener): () => void;
  /**
   * Resolves true once every change whose commit completed before the call has been handed to `message`;
   * false when that cannot be known (not listening, or the connection failed meanwhile).
   */
  sync(): Promise<boolean>;
  stop(): Promise<void>;
}

interface FeedLog {
  info(msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * How long a request waits for the round trip on the listening connection before it reads the database
 * instead; until that round trip answers, requests do not wait for it at all.
 */
const SYNC_WAIT_MS = 1_000;
/** How long the round trip may stay unanswered before the connection is given up (and replaced). */
const SYNC_GIVE_UP_MS = 15_000;

/**
 * PostgreSQL: one dedicated connection (not from the pool) that LISTENs. A committing transaction signals
 * every listening backend before its COMMIT returns, and a backend sends the notifications it was signalled
 * before the ReadyForQuery of the next statement it answers; so an empty statement sent on this connection
 * after a request began answers only after every change committed before that moment has been delivered
 * (`sync`). Requests waiting at the same time share one such round trip. When the connection fails or is
 * terminated, `listening` is false until a new one has run LISTEN again (retried every `retryMs`).
 */
export class PostgresFeed implements InvalidationFeed {
  listening = false;
  /** The listening connection's server process id, while connected. */
  backendPid: number | null = null;
  private client: pg.Client | null = null;
  private readonly out: FeedFanOut;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private waiting: ((ok: boolean) => void)[] = [];
  private inFlight: ((ok: boolean) => void)[] | null = null;
  /** The round trip in flight is late: requests read the database until it answers. */
  private stalled = false;
  private giveUp: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly log: FeedLog,
    private readonly retryMs = 1_000,
  ) {
    this.out = new FeedFanOut(log);
  }

  start(handlers: FeedHandlers): void {
    this.out.handlers = handlers;
    void this.connect();
  }

  subscribe(listener: FeedListener): () => void {
    return this.out.subscribe(listener);
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      // Named with the process id, so an operator (or the reliability suite) can tell instances apart.
      application_name: `portal_avisos_sesiones_${process.pid}`,
    });
    this.client = client;
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    client.on('notification', (msg) => {
      if (this.client === client && msg.channel === PRINCIPAL_CHANNEL) {
        this.out.deliver(msg.payload ?? '');
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PRINCIPAL_CHANNEL}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.client !== client || this.stopped) return;
    this.backendPid = (client as unknown as { processID: number | null }).processID ?? null;
    this.listening = true;
    this.out.state(true);
    this.log.info(
      'caché de sesiones activa: escuchando los cambios de usuarios, clientes, semanas y sesiones',
    );
  }

  private lost(client: pg.Client, err: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.backendPid = null;
    const was = this.listening;
    this.listening = false;
    this.out.state(false);
    this.release(false);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    if (was) {
      this.log.warn(
        { err },
        'caché de sesiones desactivada: se perdió la conexión de avisos; cada petición lee la base de datos hasta reconectar',
      );
    }
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
  }

  /** Answers every waiting request (the one in flight and those queued behind it). */
  private release(ok: boolean): void {
    const batches = [this.inFlight ?? [], this.waiting];
    this.inFlight = null;
    this.waiting = [];
    this.stalled = false;
    if (this.giveUp) clearTimeout(this.giveUp);
    this.giveUp = null;
    for (const batch of batches) for (const resolve of batch) resolve(ok);
  }

  sync(): Promise<boolean> {
    if (!this.listening || !this.client || this.stalled) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.pump();
    });
  }

  /** Sends one empty statement for everyone waiting now; those who come while it is out wait for the next. */
  private pump(): void {
    if (this.inFlight || this.waiting.length === 0) return;
    const client = this.client;
    if (!client || !this.listening) {
      this.release(false);
      return;
    }
    const batch = this.waiting;
    this.waiting = [];
    this.inFlight = batch;
    const timer = setTimeout(() => this.stall(client, batch), SYNC_WAIT_MS);
    timer.unref();
    client.query('').then(
      () => this.answered(client, batch, timer, true),
      () => this.answered(client, batch, timer, false),
    );
  }

  /**
   * The round trip is late (an overloaded server or a dead connection): those waiting read the database,
   * and so does everyone until it answers; the messages meanwhile are not lost, only late. If it never
   * answers, the connection is replaced.
   */
  private stall(client: pg.Client, batch: ((ok: boolean) => void)[]): void {
    if (this.inFlight !== batch || this.client !== client) return;
    this.stalled = true;
    for (const resolve of [...batch, ...this.waiting]) resolve(false);
    this.waiting = [];
    this.giveUp = setTimeout(
      () => this.lost(client, new Error('sin respuesta de la conexión de avisos')),
      SYNC_GIVE_UP_MS,
    );
    this.giveUp.unref();
  }

  private answered(
    client: pg.Client,
    batch: ((ok: boolean) => void)[],
    timer: NodeJS.Timeout,
    ok: boolean,
  ): void {
    clearTimeout(timer);
    if (this.inFlight !== batch) return; // already answered false by lost()
    this.inFlight = null;
    this.stalled = false;
    if (this.giveUp) clearTimeout(this.giveUp);
    this.giveUp = null;
    const good = ok && this.client === client && this.listening;
    for (const resolve of batch) resolve(good);
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.release(false);
    await client?.end().catch(() => undefined);
  }
}

/**
 * The embedded database: one process, so the invalidation is in-process, yet through the same triggers.
 * PGlite hands a notification to its listeners while it reads the COMMIT's answer, before that COMMIT's
 * caller continues, so a request that starts after a change committed finds the cache already cleared and
 * `sync` has nothing to wait for.
 */
export class PgliteFeed implements InvalidationFeed {
  listening = false;
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = false;
  private readonly out: FeedFanOut;

  constructor(
    private readonly pglite: PGlite,
    private readonly log: FeedLog,
  ) {
    this.out = new FeedFanOut(log);
  }

  start(handlers: FeedHandlers): void {
    this.out.handlers = handlers;
    void this.pglite
      .listen(PRINCIPAL_CHANNEL, (payload) => this.out.deliver(payload))
      .then(
        (unlisten) => {
          this.unlisten = unlisten;
          if (this.stopped) return;
          this.listening = true;
          this.out.state(true);
        },
        (err: Error) =>
          this.log.warn({ err }, 'caché de sesiones desactivada: no se pudo escuchar los cambios'),
      );
  }

  subscribe(listener: FeedListener): () => void {
    return this.out.subscribe(listener);
  }

  sync(): Promise<boolean> {
    return Promise.resolve(this.listening);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    await this.unlisten?.().catch(() => undefined);
  }
}

export function invalidationFeed(database: Database, log: FeedLog): InvalidationFeed | null {
  if (database.kind === 'pglite' && database.pglite) return new PgliteFeed(database.pglite, log);
  if (database.url) return new PostgresFeed(database.url, log);
  return null;
}
