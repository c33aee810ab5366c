import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseSignatureHeader, WEBHOOK_TOLERANCE_SECONDS } from '@portal/shared/domain/integration';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * The receiver's check of docs/integration.md, written from the document: HMAC-SHA256 of "t.body" with
 * the endpoint's secret, compared in constant time, and `t` within the replay tolerance.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const parsed = header ? parseSignatureHeader(header) : null;
  if (!parsed) return false;
  if (Math.abs(nowSeconds - parsed.t) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${parsed.t}.${body}`).digest();
  return parsed.v1.some((v) => {
    const given = Buffer.from(v, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A real HTTP receiver on 127.0.0.1: records every request; `answers[path]` lists the statuses to give
 * in turn (the last one repeats; 200 when none), so "fails twice, then succeeds" is `[500, 500, 200]`.
 * With `tls` it serves HTTPS (the reliability suite's servers run in production, https only); `port`
 * fixes its port (0: any free one).
 */
export async function startReceiver(
  answers: Record<string, number[]> = {},
  options: { tls?: { key: string; cert: string }; port?: number } = {},
) {
  const received: ReceivedHook[] = [];
  const served = new Map<string, number>();
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const n = served.get(path) ?? 0;
      served.set(path, n + 1);
      const list = answers[path] ?? [200];
      const status = list[Math.min(n, list.length - 1)] ?? 200;
      if (status >= 300 && status < 400) res.setHeader('location', `${path}-destino`);
      res.statusCode = status;
      res.end('ok');
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` answers a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 20_000,
  what = 'condición',
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`No se cumplió a tiempo: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
