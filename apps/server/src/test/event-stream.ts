/**
 * A server-sent events client for the API suites: a real HTTP request (fetch) to a listening app, whose body
 * is read as it arrives and parsed as the HTML standard's EventSource parses it (`event:`, `data:`, `id:`,
 * `retry:`, comments; an `id:` alone moves the last event id without an event). Unlike a browser it never
 * reconnects by itself: a test opens the next stream with `lastEventId`, as a browser would send it.
 */
import type { ApiClient } from './harness.ts';

export interface StreamEvent {
  event: string;
  data: string;
  /** The last event id when the event arrived. */
  id: string | undefined;
}

export interface OpenStreamOptions {
  lastEventId?: string;
  headers?: Record<string, string>;
}

export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  /** The last event id the stream set (what a reconnection sends as Last-Event-ID). */
  lastEventId: string | undefined;
  retryMs: number | undefined;
  comments = 0;
  /** Resolves when the server ends the stream (or the test closes it). */
  readonly ended: Promise<void>;
  done = false;
  private readonly abort: AbortController;

  private constructor(
    readonly response: Response,
    abort: AbortController,
  ) {
    this.abort = abort;
    this.ended = this.read();
  }

  /** Opens `GET path` on `base` with the cookies of `api` (or none), and starts reading what comes. */
  static async open(
    base: string,
    api: ApiClient | null,
    path = '/api/eventos',
    options: OpenStreamOptions = {},
  ): Promise<EventStreamClient> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
    if (api) headers.cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const abort = new AbortController();
    const response = await fetch(new URL(path, base), { headers, signal: abort.signal });
    return new EventStreamClient(response, abort);
  }

  private async read(): Promise<void> {
    const body = this.response.body;
    if (!body) {
      this.done = true;
      return;
    }
    const decoder = new TextDecoder();
    const reader = body.getReader();
    let pending = '';
    let event = '';
    let data: string[] = [];
    const line = (text: string) => {
      if (text === '') {
        if (data.length > 0)
          this.events.push({ event: event || 'message', data: data.join('\n'), id: this.lastEventId });
        event = '';
        data = [];
        return;
      }
      if (text.startsWith(':')) {
        this.comments++;
        return;
      }
      const colon = text.indexOf(':');
      const field = colon < 0 ? text : text.slice(0, colon);
      const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    };
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        pending += decoder.decode(value, { stream: true });
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop() ?? '';
        for (const text of lines) line(text);
      }
    } catch {
      // Closed by the test (abort) or cut by the server: the stream is over either way.
    } finally {
      this.done = true;
    }
  }

  /** The events received so far of one type (`data` parsed as JSON). */
  of(event: string): unknown[] {
    return this.events.filter((e) => e.event === event).map((e) => JSON.parse(e.data));
  }

  /** Waits until an event that `match` accepts has arrived (at any time since the stream opened). */
  async waitFor(match: (e: StreamEvent) => boolean, what: string, ms = 10_000): Promise<StreamEvent> {
    const until = performance.now() + ms;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (this.done) throw new Error(`the stream ended before ${what}`);
      if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Waits until the server has ended the stream. */
  async waitForEnd(what: string, ms = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    });
    try {
      await Promise.race([this.ended, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.abort.abort();
  }
}
