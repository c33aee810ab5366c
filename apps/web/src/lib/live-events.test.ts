// @vitest-environment jsdom
/**
 * The app's live-updates stream (decision 0116) against a stand-in for the browser's EventSource (jsdom has
 * none): the test plays the server's side — opening, sending events, refusing — and reads what the module
 * does with it. The real stream and the real browser are covered by live.api.test.ts and
 * e2e/live-updates.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeLiveEvents, LIVE_EVENTS_PATH, type LiveHandlers, openLiveEvents } from './live-events';

class StandInEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: StandInEventSource[] = [];
  readyState = StandInEventSource.CONNECTING;
  closed = false;

  constructor(readonly url: string) {
    super();
    StandInEventSource.opened.push(this);
  }

  close(): void {
    this.closed = true;
    this.readyState = StandInEventSource.CLOSED;
  }

  // What the server and the browser's own handling would do.
  accept(): void {
    this.readyState = StandInEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  send(event: string, data: string): void {
    this.dispatchEvent(new MessageEvent(event, { data }));
  }
  fail(readyState: number): void {
    this.readyState = readyState;
    this.dispatchEvent(new Event('error'));
  }
}

let calls: string[];
const handlers: LiveHandlers = {
  pedido: (id) => calls.push(`pedido ${id}`),
  aviso: () => calls.push('aviso'),
  presupuesto: () => calls.push('presupuesto'),
  recarga: () => calls.push('recarga'),
};
const latest = () => StandInEventSource.opened.at(-1)!;
function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  calls = [];
  StandInEventSource.opened = [];
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', StandInEventSource);
});
afterEach(() => {
  closeLiveEvents();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('live events', () => {
  it('one stream for the app: its events reach the handlers; a malformed order id is ignored', () => {
    openLiveEvents(handlers);
    openLiveEvents(handlers);
    expect(StandInEventSource.opened).toHaveLength(2);
    expect(StandInEventSource.opened[0]!.closed).toBe(true);
    const source = latest();
    expect(source.url).toBe(LIVE_EVENTS_PATH);
    source.accept();
    source.send('pedido', '{"id":42}');
    source.send('pedido', '{"id":"42"}');
    source.send('pedido', 'no es json');
    source.send('aviso', '{}');
    source.send('presupuesto', '{}');
    source.send('recarga', '{}');
    // The first opening asks again for nothing: the screens have just loaded.
    expect(calls).toEqual(['pedido 42', 'aviso', 'presupuesto', 'recarga']);
  });

  it('refused or cut for good: tried again a minute later, then everything is asked again', () => {
    openLiveEvents(handlers);
    latest().accept();
    latest().fail(StandInEventSource.CONNECTING);
    // The browser reconnects by itself (Last-Event-ID): nothing to do.
    vi.advanceTimersByTime(120_000);
    expect(StandInEventSource.opened).toHaveLength(1);
    latest().fail(StandInEventSource.CLOSED);
    vi.advanceTimersByTime(59_000);
    expect(StandInEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(StandInEventSource.opened).toHaveLength(2);
    latest().accept();
    expect(calls).toEqual(['recarga']);
  });

  it('fin (the session no longer holds): closed at once, not reconnected, tried again a minute later', () => {
    openLiveEvents(handlers);
    const ended = latest();
    ended.accept();
    ended.send('fin', '{}');
    expect(ended.closed).toBe(true);
    vi.advanceTimersByTime(59_000);
    expect(StandInEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(StandInEventSource.opened).toHaveLength(2);
    latest().accept();
    expect(calls).toEqual(['recarga']);
  });

  it('a tab hidden for 30 s closes its stream; shown again it reopens it and asks again', () => {
    openLiveEvents(handlers);
    latest().accept();
    setVisibility('hidden');
    vi.advanceTimersByTime(29_000);
    setVisibility('visible');
    setVisibility('hidden');
    vi.advanceTimersByTime(29_000);
    expect(latest().closed).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(latest().closed).toBe(true);
    setVisibility('visible');
    expect(StandInEventSource.opened).toHaveLength(2);
    latest().accept();
    expect(calls).toEqual(['recarga']);
  });

  it('sign-out closes it for good: nothing reopens it', () => {
    openLiveEvents(handlers);
    const source = latest();
    source.accept();
    closeLiveEvents();
    expect(source.closed).toBe(true);
    source.fail(StandInEventSource.CLOSED);
    vi.advanceTimersByTime(120_000);
    setVisibility('visible');
    expect(StandInEventSource.opened).toHaveLength(1);
  });
});
