/**
 * The process's own Prometheus series (decision 0104): counters that the code increments at the one place
 * each thing happens, and the requests' duration histogram. They live in this process's registry whether
 * or not anything scrapes it (an increment is a few nanoseconds); `plugins/metrics.ts` serves them, with
 * the series read from the database at scrape time, on the METRICS_PORT listener. Names and labels are
 * fixed words, never user input: every series has a bounded number of label values.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export const processRegistry = new Registry();

/** Orders placed by buyers (`POST /api/compra`), by their status at purchase. */
export const purchasesTotal = new Counter({
  name: 'portal_purchases_total',
  help: 'Compras confirmadas (pedidos creados), por su estatus al comprar (aprobado o pendiente)',
  labelNames: ['status'] as const,
  registers: [processRegistry],
});

/** Approvals by an authorizer (one or in bulk), by the order's new status. */
export const approvalsTotal = new Counter({
  name: 'portal_approvals_total',
  help: 'Aprobaciones de pedidos por un autorizador, por el estatus que dejan (aprobado, o espera del segundo nivel)',
  labelNames: ['status'] as const,
  registers: [processRegistry],
});

/** Attempts the throttles refused (sign-in, second step, recovery, password links). */
export const throttleRefusalsTotal = new Counter({
  name: 'portal_throttle_refusals_total',
  help: 'Intentos rechazados por los límites de intentos (inicio de sesión, segundo paso, recuperación, enlaces), por tipo y por límite (usuario o dirección)',
  labelNames: ['kind', 'scope'] as const,
  registers: [processRegistry],
});

/** The outbox worker's attempts to hand an e-mail over, by outcome. */
export const emailAttemptsTotal = new Counter({
  name: 'portal_email_attempts_total',
  help: 'Intentos de envío de correos de la bandeja de salida: enviado, error (se reintenta), fallido (sin más intentos) o registrado (sin SMTP_URL)',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

/** Webhook delivery attempts, by outcome. */
export const webhookAttemptsTotal = new Counter({
  name: 'portal_webhook_attempts_total',
  help: 'Intentos de entrega de webhooks: entregado, reintento (falló y se reintentará) o fallido (sin más reintentos)',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

/** Pushes to devices (Web Push, decision 0117), by outcome. */
export const pushAttemptsTotal = new Counter({
  name: 'portal_push_attempts_total',
  help: 'Intentos de envío de avisos al teléfono (Web Push): entregado, reintento (se reintentará), fallido (sin más intentos o sin enviar) o baja (el servicio dijo que el dispositivo ya no existe)',
  labelNames: ['result'] as const,
  registers: [processRegistry],
});

/**
 * Every answer's duration, by method, route pattern (`/api/pedidos/:id`, never the URL itself) and status.
 * Its `_count` is the number of requests.
 */
export const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duración de las solicitudes HTTP hasta su respuesta, por método, ruta (el patrón, nunca la URL) y estatus',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

let defaultsCollected = false;

/**
 * prom-client's process series (memory, CPU, event-loop delay, garbage collection, handles), once per
 * process: started with the first metrics listener, so a process that serves none measures nothing.
 */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 10 });
}
