/**
 * The live updates' hub and messages (decision 0116) without a database: how a payload is read, what the
 * kept events answer to a reconnection that asks from too far back, and the per-person cap. The API suite
 * (live.api.test.ts) covers the same through real streams and real changes.
 */
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInvalidation, parseLiveChange } from '../../db/invalidation.ts';
import { CAPPED_RETRY_MS, LiveHub, MAX_STREAMS_PER_USER, REPLAY_EVENTS, type StreamOwner } from './live.ts';

const log = { warn: () => undefined };

/** Everything written to a stream so far. */
function collected(body: Readable): () => string {
  let text = '';
  body.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return () => text;
}

/** Lets the streams hand over what was written to them. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const eventsIn = (text: string) =>
  [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => [m[1], m[2]]);

describe('live updates: messages', () => {
  it('reads orders and users, and names everything when the payload does not say', () => {
    expect(parseLiveChange('p:12:3:45;13:3:46')).toEqual({
      kind: 'pedido',
      orders: [
        { id: 12, clientId: 3, buyerId: 45 },
        { id: 13, clientId: 3, buyerId: 46 },
      ],
    });
    expect(parseLiveChange('p:*')).toEqual({ kind: 'pedido', orders: 'all' });
    expect(parseLiveChange('p:12:3')).toEqual({ kind: 'pedido', orders: 'all' });
    expect(parseLiveChange('a:7,8')).toEqual({ kind: 'aviso', userIds: [7, 8] });
    expect(parseLiveChange('a:*')).toEqual({ kind: 'aviso', userIds: 'all' });
    expect(parseLiveChange('b:7,8')).toEqual({ kind: 'presupuesto', userIds: [7, 8] });
    expect(parseLiveChange('b:*')).toEqual({ kind: 'presupuesto', userIds: 'all' });
    // The session cache's payloads are not the live updates'.
    for (const payload of ['u:1', 'c:2', 's:abc', '*', '']) expect(parseLiveChange(payload)).toBeNull();
    expect(parseInvalidation('u:1,2')).toEqual({ kind: 'u', ids: ['1', '2'] });
  });
});

describe('live updates: the hub', () => {
  const hubs: LiveHub[] = [];
  const newHub = () => {
    const hub = new LiveHub({ heartbeatMs: 60_000, maxLifeMs: 60_000, log });
    hubs.push(hub);
    return hub;
  };
  afterEach(() => {
    for (const hub of hubs.splice(0)) hub.close();
  });
  const buyer: StreamOwner = { userId: 1, rol: 1, clientId: 10, sessionId: 's1' };
  const authorizer: StreamOwner = { userId: 2, rol: 3, clientId: 10, sessionId: 's2' };
  const administrator: StreamOwner = { userId: 3, rol: 4, clientId: null, sessionId: 's3' };
  const signedIn = async () => true;

  it('an order goes to its buyer and its client’s authorizers; a bell change to its owner; p:* to everyone as recarga', async () => {
    const hub = newHub();
    const b = collected(hub.open(buyer, undefined, signedIn));
    const a = collected(hub.open(authorizer, undefined, signedIn));
    const adm = collected(hub.open(administrator, undefined, signedIn));
    hub.live({ kind: 'pedido', orders: [{ id: 5, clientId: 10, buyerId: 1 }] });
    hub.live({ kind: 'pedido', orders: [{ id: 6, clientId: 11, buyerId: 9 }] });
    hub.live({ kind: 'aviso', userIds: [3] });
    hub.live({ kind: 'pedido', orders: 'all' });
    await settle();
    expect(eventsIn(b())).toEqual([
      ['pedido', '{"id":5}'],
      ['recarga', '{}'],
    ]);
    expect(eventsIn(a())).toEqual([
      ['pedido', '{"id":5}'],
      ['recarga', '{}'],
    ]);
    expect(eventsIn(adm())).toEqual([
      ['aviso', '{}'],
      ['recarga', '{}'],
    ]);
  });

  it('a budget change goes to the buyers it names, nobody else; b:* to everyone', async () => {
    const hub = newHub();
    const b = collected(hub.open(buyer, undefined, signedIn));
    const a = collected(hub.open(authorizer, undefined, signedIn));
    hub.live({ kind: 'presupuesto', userIds: [1] });
    hub.live({ kind: 'presupuesto', userIds: [9] });
    hub.live({ kind: 'presupuesto', userIds: 'all' });
    await settle();
    expect(eventsIn(b())).toEqual([
      ['presupuesto', '{}'],
      ['presupuesto', '{}'],
    ]);
    expect(eventsIn(a())).toEqual([['presupuesto', '{}']]);
  });

  it(`a Last-Event-ID older than the last ${REPLAY_EVENTS} events gets recarga; one just inside gets the rest`, async () => {
    const hub = newHub();
    const start = hub.lastId;
    hub.live({ kind: 'aviso', userIds: [1] });
    const inside = hub.lastId;
    for (let i = 0; i < REPLAY_EVENTS; i++) hub.live({ kind: 'aviso', userIds: [1] });
    const tooOld = collected(hub.open(buyer, start, signedIn));
    await settle();
    expect(eventsIn(tooOld())).toEqual([['recarga', '{}']]);
    const kept = collected(hub.open(buyer, inside, signedIn));
    await settle();
    expect(eventsIn(kept())).toHaveLength(REPLAY_EVENTS);
    expect(kept().trimEnd().endsWith(`id: ${hub.lastId}`)).toBe(true);
  });

  it(`a person’s ${MAX_STREAMS_PER_USER + 1}th stream ends their oldest, and only that one`, async () => {
    const hub = newHub();
    const bodies = Array.from({ length: MAX_STREAMS_PER_USER }, () => hub.open(buyer, undefined, signedIn));
    for (const body of bodies) body.resume();
    const oldest = collected(bodies[0]!);
    const ended = new Promise<void>((resolve) => bodies[0]!.on('end', () => resolve()));
    hub.open(authorizer, undefined, signedIn).resume();
    expect(hub.size).toBe(MAX_STREAMS_PER_USER + 1);
    hub.open(buyer, undefined, signedIn).resume();
    await ended;
    await settle();
    // It is told to wait a minute before reconnecting, so tabs beyond the cap do not take turns.
    expect(oldest().trimEnd().endsWith(`retry: ${CAPPED_RETRY_MS}`)).toBe(true);
    expect(hub.size).toBe(MAX_STREAMS_PER_USER + 1);
    expect(bodies.slice(1).every((b) => !b.readableEnded)).toBe(true);
  });

  it('listening again after a gap sends recarga to every stream; an invalidation checks the sessions it names', async () => {
    const hub = newHub();
    let valid = true;
    const b = collected(hub.open(buyer, undefined, async () => valid));
    const a = collected(hub.open(authorizer, undefined, signedIn));
    hub.state(false);
    hub.state(true);
    await settle();
    expect(eventsIn(b())).toEqual([['recarga', '{}']]);
    expect(eventsIn(a())).toEqual([['recarga', '{}']]);
    valid = false;
    hub.invalidation({ kind: 's', ids: ['s2'] });
    await new Promise((r) => setImmediate(r));
    expect(hub.size).toBe(2);
    hub.invalidation({ kind: 'u', ids: ['1'] });
    await new Promise((r) => setTimeout(r, 10));
    expect(hub.size).toBe(1);
  });
});
