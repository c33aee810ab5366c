/**
 * The live updates' stream (decision 0116): one EventSource (`GET /api/eventos`) for the signed-in app. The
 * server says only what changed — `pedido` (an order's id), `aviso` (the bell), `presupuesto` (the buyer's
 * budget figures), `recarga` (ask again for everything) — and the page asks again through its usual calls. The browser reconnects by itself when the
 * server ends a stream, sending the last event's id so that nothing is missed; when the stream is refused,
 * cut for good, or ends with `fin` (its session no longer holds: reconnecting would only be refused) it is
 * tried again a minute later, and the screens poll meanwhile (`useLiveEventsUp`), which is also how a
 * signed-out page finds out.
 * A tab hidden for a while closes its stream (a browser allows few connections to one site over HTTP/1.1,
 * and a hidden tab needs no news); shown again, it reopens it and asks again for what is on screen.
 */
import { useSyncExternalStore } from 'react';

export interface LiveHandlers {
  /** An order the person may see changed (its id). */
  pedido(id: number): void;
  /** The person's bell changed. */
  aviso(): void;
  /** The person's budget figures or top-up requests changed (a top-up decided, a transfer between áreas). */
  presupuesto(): void;
  /** Something may have been missed: ask again for everything on screen. */
  recarga(): void;
}

export const LIVE_EVENTS_PATH = '/api/eventos';
/** After the stream was refused or cut for good, how long until it is tried again (screens poll meanwhile). */
const REOPEN_MS = 60_000;
/** A tab hidden this long closes its stream. */
const HIDDEN_CLOSE_MS = 30_000;

let up = false;
const watchers = new Set<() => void>();
let stopCurrent: (() => void) | null = null;

function setUp(next: boolean): void {
  if (up === next) return;
  up = next;
  for (const watch of watchers) watch();
}

function orderId(data: string): number | null {
  try {
    const id = (JSON.parse(data) as { id?: unknown }).id;
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Opens the app's stream (closing one already open) and hands its events to `handlers`; returns how to
 * close it. Without EventSource in the browser it does nothing: the screens keep polling.
 */
export function openLiveEvents(handlers: LiveHandlers): () => void {
  closeLiveEvents();
  if (typeof EventSource === 'undefined') return () => undefined;
  let source: EventSource | null = null;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  let hiddenClose: ReturnType<typeof setTimeout> | undefined;
  /** A stream opened after another one closed asks again for everything (what came meanwhile is not sent). */
  let opened = false;
  let stopped = false;

  const disconnect = () => {
    clearTimeout(reopen);
    source?.close();
    source = null;
    setUp(false);
  };
  const connect = () => {
    if (stopped || source) return;
    clearTimeout(reopen);
    const current = new EventSource(LIVE_EVENTS_PATH);
    source = current;
    let first = true;
    current.addEventListener('open', () => {
      setUp(true);
      if (first && opened) handlers.recarga();
      first = false;
      opened = true;
    });
    current.addEventListener('pedido', (e) => {
      const id = orderId((e as MessageEvent<string>).data);
      if (id !== null) handlers.pedido(id);
    });
    current.addEventListener('aviso', () => handlers.aviso());
    current.addEventListener('presupuesto', () => handlers.presupuesto());
    current.addEventListener('recarga', () => handlers.recarga());
    current.addEventListener('fin', () => {
      if (source !== current) return;
      current.close();
      source = null;
      setUp(false);
      reopen = setTimeout(connect, REOPEN_MS);
    });
    current.addEventListener('error', () => {
      setUp(false);
      // CONNECTING: the browser reconnects by itself. CLOSED: refused (signed out, the server down): later.
      if (current.readyState === EventSource.CLOSED && source === current) {
        source = null;
        reopen = setTimeout(connect, REOPEN_MS);
      }
    });
  };
  const onVisibility = () => {
    clearTimeout(hiddenClose);
    if (document.visibilityState === 'hidden') hiddenClose = setTimeout(disconnect, HIDDEN_CLOSE_MS);
    else connect();
  };

  document.addEventListener('visibilitychange', onVisibility);
  connect();
  const stop = () => {
    stopped = true;
    clearTimeout(hiddenClose);
    document.removeEventListener('visibilitychange', onVisibility);
    disconnect();
    if (stopCurrent === stop) stopCurrent = null;
  };
  stopCurrent = stop;
  return stop;
}

/** Closes the app's stream, if one is open (sign-out). */
export function closeLiveEvents(): void {
  stopCurrent?.();
}

function watch(onChange: () => void): () => void {
  watchers.add(onChange);
  return () => watchers.delete(onChange);
}

/** Whether the stream is open right now: while it is not, a screen that needs fresh data polls. */
export function useLiveEventsUp(): boolean {
  return useSyncExternalStore(
    watch,
    () => up,
    () => false,
  );
}
