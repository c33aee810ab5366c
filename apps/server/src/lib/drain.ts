import type { Server } from 'node:http';
import net from 'node:net';

/**
 * The first step of a graceful stop. The listener closes, so new connections are refused (a load balancer
 * sends them to another instance), while every request already sent on an open connection is still served
 * normally, answered with `Connection: close`. Resolves once no connection is left, or after `graceMs`
 * (an idle keep-alive connection is closed by the server's own close, which follows).
 *
 * `http.Server#close` alone is not enough: it also destroys at once every connection whose request the
 * server has not read yet, and those clients see a reset instead of an answer.
 */
export async function stopAccepting(server: Server, graceMs: number): Promise<void> {
  server.prependListener('request', (_request, response) => {
    response.setHeader('connection', 'close');
  });
  // Not in the signal's own callback: one more turn of the event loop first accepts the connections
  // already waiting in the kernel's queue (closing the listener resets them), then the listener closes.
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  net.Server.prototype.close.call(server);
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    const open = await new Promise<number>((resolve) =>
      server.getConnections((err, n) => resolve(err ? 0 : n)),
    );
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
