/**
 * Live updates (issue 43 item 6, decision 0116): this process's open event streams (`GET /api/eventos`) and
 * what reaches each. The database announces every order inserted or updated and every user whose bell
 * changed (migration 0041), and the buyers whose budget figures a top-up's decision or a transfer changed
 * (`announceBudgets`, decision 0123), on the channel this process already listens to for the session cache
 * (db/invalidation.ts); the hub turns each announcement into events for the streams whose owner may see the
 * thing: an order to its buyer and to the authorizers (rol 2 and 3) of its client — who are also everyone
 * who stands in for one of them, since a delegate is an authorizer of the same client — and a bell change to
 * its owner, a budget change to those buyers. An event names only what changed (`pedido` with the order's
 * id, `aviso`, `presupuesto`, `recarga`): the page asks again through its usual, authorized routes. Events
 * are numbered per process (`<process>-<n>`) and the latest are kept, so a browser that reconnects with
 * `Last-Event-ID` gets what it missed, or `recarga` (ask again for everything) when that is unknown or no
 * longer kept.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { areaAllows } from '@portal/shared/domain/roles';
import type { FeedListener, Invalidation, LiveChange } from '../../db/invalidation.ts';

/** Streams one user may have open at once (tabs, devices); a new one beyond it closes their oldest. */
export const MAX_STREAMS_PER_USER = 5;
/** Events kept for reconnections (per process); an older `Last-Event-ID` gets `recarga`. */
export const REPLAY_EVENTS = 500;
/** How long the browser waits before reconnecting (the stream's `retry:` field), in milliseconds. */
export const RETRY_MS = 3_000;
/**
 * The wait a stream closed for the cap is told before it reconnects: a person with more tabs than the cap
 * does not have them take each other's place every few seconds (the others poll meanwhile).
 */
export const CAPPED_RETRY_MS = 60_000;

/** Above this many streams concerned by one invalidation, their session checks are spread out. */
const SPREAD_ABOVE = 20;

export type LiveEventName = 'pedido' | 'aviso' | 'presupuesto' | 'recarga';

/** Who receives an event. */
type Audience =
  | { kind: 'order'; clientId: number; buyerId: number }
  | { kind: 'users'; ids: ReadonlySet<number> }
  | { kind: 'everyone' };

interface LiveEvent {
  seq: number;
  name: LiveEventName;
  data: string;
  audience: Audience;
}

/** The signed-in person a stream belongs to, as the guard saw them when it opened. */
export interface StreamOwner {
  userId: number;
  rol: number;
  clientId: number | null;
  sessionId: string;
}

interface LiveLog {
  warn(obj: object, msg: string): void;
}

export interface LiveHubOptions {
  /** Heartbeat and session check period (EVENTS_HEARTBEAT_SECONDS). */
  heartbeatMs: number;
  /** A stream's longest life (EVENTS_MAX_SECONDS). */
  maxLifeMs: number;
  log: LiveLog;
}

/** Whether `owner` may see `audience`'s thing: the rule of the order lists and the bell. */
function receives(owner: StreamOwner, audience: Audience): boolean {
  switch (audience.kind) {
    case 'everyone':
      return true;
    case 'users':
      return audience.ids.has(owner.userId);
    case 'order':
      // The buyer's own order; an authorizer reads every order of their client (GET /api/pedidos, 'todos').
      return (
        owner.userId === audience.buyerId ||
        (areaAllows('autorizador', owner.rol) && owner.clientId === audience.clientId)
      );
  }
}

/** One open stream: its body (what Fastify sends), its owner, and how to check the session again. */
class LiveStream {
  readonly body = new PassThrough();
  private heartbeat: NodeJS.Timeout | null = null;
  private life: NodeJS.Timeout | null = null;
  private checking = false;
  private gone: () => void = () => undefined;
  ended = false;

  constructor(
    readonly owner: StreamOwner,
    private readonly stillSignedIn: () => Promise<boolean>,
  ) {}

  /** Starts the timers; `onGone` runs once the stream has ended (by the server or by the browser leaving). */
  start(options: LiveHubOptions, onGone: () => void): void {
    this.gone = onGone;
    this.body.on('close', () => {
      this.ended = true;
      this.clearTimers();
      onGone();
    });
    this.heartbeat = setInterval(() => {
      this.write(': latido\n\n');
      void this.check();
    }, options.heartbeatMs);
    // A tenth of jitter, so that streams opened together do not all reconnect together.
    this.life = setTimeout(() => this.end(), options.maxLifeMs * (0.9 + Math.random() * 0.1));
    this.heartbeat.unref();
    this.life.unref();
  }

  write(chunk: string): void {
    if (!this.ended) this.body.write(chunk);
  }

  /**
   * Ends the stream when its session no longer holds (signed out, expired, idle, deactivated, moved), with
   * `fin` first: the page stops the stream instead of reconnecting to a refusal.
   */
  async check(): Promise<void> {
    if (this.ended || this.checking) return;
    this.checking = true;
    try {
      if (!(await this.stillSignedIn())) {
        this.write(FIN);
        this.end();
      }
    } catch {
      // The database did not answer: the browser reconnects, and the guard decides then.
      this.end();
    } finally {
      this.checking = false;
    }
  }

  /** Ends the stream; `retryMs`: how long the browser should wait before it reconnects. */
  end(retryMs?: number): void {
    if (this.ended) return;
    if (retryMs !== undefined) this.body.write(`retry: ${retryMs}\n\n`);
    this.ended = true;
    this.clearTimers();
    this.body.end();
    // Out of the hub at once (the body closes once the last bytes are out): no event is meant for it now.
    this.gone();
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.life) clearTimeout(this.life);
    this.heartbeat = null;
    this.life = null;
  }
}

/** The last words of a stream whose session no longer holds (not numbered: it concerns this stream only). */
const FIN = 'event: fin\ndata: {}\n\n';

/** `id:`, `event:` and `data:` lines of one event (its data is one line of JSON). */
function frame(boot: string, event: LiveEvent): string {
  return `id: ${boot}-${event.seq}\nevent: ${event.name}\ndata: ${event.data}\n\n`;
}

function addTo<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(stream);
}

function removeFrom<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) map.delete(key);
}

/**
 * The process's open streams, indexed by user and (for authorizers) by client, and the latest events. It
 * listens to the invalidation feed: the live updates' changes become events; an invalidation of a stream's
 * session, user or client checks that session again at once (a signed-out or deactivated person's stream
 * ends then, not at the next heartbeat); when listening starts again after a gap, everyone gets `recarga`.
 */
export class LiveHub implements FeedListener {
  /** This process's prefix of event ids: an id of another process (or of before a restart) is unknown. */
  readonly boot = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly kept: LiveEvent[] = [];
  private readonly streams = new Set<LiveStream>();
  /** Every stream of a user, oldest first (Set keeps insertion order). */
  private readonly byUser = new Map<number, Set<LiveStream>>();
  /** The streams of authorizers, by their client. */
  private readonly byClient = new Map<number, Set<LiveStream>>();

  constructor(private readonly options: LiveHubOptions) {}

  /** How many streams are open (in this process). */
  get size(): number {
    return this.streams.size;
  }

  /** The id of the latest event (what a stream that missed nothing would send as Last-Event-ID). */
  get lastId(): string {
    return `${this.boot}-${this.seq}`;
  }

  /**
   * Opens a stream for `owner`: the reconnection delay, what it missed since `lastEventId` (or `recarga`),
   * then events as they come. Beyond MAX_STREAMS_PER_USER the owner's oldest stream ends.
   */
  open(owner: StreamOwner, lastEventId: string | undefined, stillSignedIn: () => Promise<boolean>) {
    const stream = new LiveStream(owner, stillSignedIn);
    const mine = this.byUser.get(owner.userId);
    if (mine && mine.size >= MAX_STREAMS_PER_USER) {
      const excess = mine.size - MAX_STREAMS_PER_USER + 1;
      for (const old of [...mine].slice(0, excess)) old.end(CAPPED_RETRY_MS);
    }
    this.streams.add(stream);
    addTo(this.byUser, owner.userId, stream);
    if (owner.clientId !== null && areaAllows('autorizador', owner.rol))
      addTo(this.byClient, owner.clientId, stream);
    stream.start(this.options, () => this.forget(stream));
    stream.write(`retry: ${RETRY_MS}\n\n`);
    if (lastEventId !== undefined) this.replay(stream, lastEventId);
    // Carries the latest id even when nothing was sent: a reconnection then asks from here.
    stream.write(`id: ${this.lastId}\n\n`);
    return stream.body;
  }

  /** The events after `lastEventId` that the stream's owner receives, or `recarga` when they are not known. */
  private replay(stream: LiveStream, lastEventId: string): void {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastEventId);
    const after = match && match[1] === this.boot ? Number(match[2]) : null;
    const oldest = this.kept[0]?.seq ?? this.seq + 1;
    if (after === null || after > this.seq || after < oldest - 1) {
      stream.write(
        frame(this.boot, { seq: this.seq, name: 'recarga', data: '{}', audience: { kind: 'everyone' } }),
      );
      return;
    }
    for (const event of this.kept)
      if (event.seq > after && receives(stream.owner, event.audience)) stream.write(frame(this.boot, event));
  }

  private forget(stream: LiveStream): void {
    this.streams.delete(stream);
    removeFrom(this.byUser, stream.owner.userId, stream);
    if (stream.owner.clientId !== null) removeFrom(this.byClient, stream.owner.clientId, stream);
  }

  /** Numbers and keeps an event, and writes it to every open stream that receives it. */
  private emit(name: LiveEventName, data: object, audience: Audience): void {
    const event: LiveEvent = { seq: ++this.seq, name, data: JSON.stringify(data), audience };
    this.kept.push(event);
    if (this.kept.length > REPLAY_EVENTS) this.kept.shift();
    const text = frame(this.boot, event);
    for (const stream of this.candidates(audience)) if (receives(stream.owner, audience)) stream.write(text);
  }

  /** The streams that may receive an audience's event (a superset; `receives` decides). */
  private candidates(audience: Audience): Iterable<LiveStream> {
    switch (audience.kind) {
      case 'everyone':
        return this.streams;
      case 'users':
        return [...audience.ids].flatMap((id) => [...(this.byUser.get(id) ?? [])]);
      case 'order':
        return new Set([
          ...(this.byUser.get(audience.buyerId) ?? []),
          ...(this.byClient.get(audience.clientId) ?? []),
        ]);
    }
  }

  live(change: LiveChange): void {
    if (change.kind === 'pedido') {
      if (change.orders === 'all') this.emit('recarga', {}, { kind: 'everyone' });
      else
        for (const order of change.orders)
          this.emit(
            'pedido',
            { id: order.id },
            { kind: 'order', clientId: order.clientId, buyerId: order.buyerId },
          );
      return;
    }
    // A bell (`aviso`) or a buyer's budget figures (`presupuesto`): its people's streams.
    this.emit(
      change.kind,
      {},
      change.userIds === 'all' ? { kind: 'everyone' } : { kind: 'users', ids: new Set(change.userIds) },
    );
  }

  /** A change to sessions, users or clients: the streams it may concern check their session now. */
  invalidation(change: Invalidation): void {
    let touched: Iterable<LiveStream>;
    if (change.kind === 'all') touched = this.streams;
    else if (change.kind === 's') {
      const ids = new Set(change.ids);
      touched = [...this.streams].filter((s) => ids.has(s.owner.sessionId));
    } else {
      const ids = new Set(change.ids.map(Number));
      touched = [...this.streams].filter((s) =>
        change.kind === 'u'
          ? ids.has(s.owner.userId)
          : s.owner.clientId !== null && ids.has(s.owner.clientId),
      );
    }
    const streams = [...touched];
    // Many at once (a client edited, everything flushed): spread over a few seconds, not all at one instant.
    const spreadMs = streams.length > SPREAD_ABOVE ? Math.min(5_000, streams.length * 10) : 0;
    for (const stream of streams) {
      if (spreadMs === 0) void stream.check();
      else setTimeout(() => void stream.check(), Math.random() * spreadMs).unref();
    }
  }

  /** Listening (re)started: what changed meanwhile was not heard, so every stream asks again. */
  state(listening: boolean): void {
    if (listening) this.emit('recarga', {}, { kind: 'everyone' });
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const stream of [...this.streams]) stream.end();
  }
}
