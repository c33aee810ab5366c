import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.ts';
import { MSG } from '../messages.ts';

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08006',
  '08001',
  '08003',
]);

function isDatabaseDown(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown };
  if (e?.code && DB_DOWN_CODES.has(e.code)) return true;
  if (
    typeof e?.message === 'string' &&
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|is not queryable/i.test(
      e.message,
    )
  )
    return true;
  return e?.cause ? isDatabaseDown(e.cause) : false;
}

const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: MSG.datosInvalidos,
  404: MSG.noEncontrado,
  405: 'Método no permitido.',
  406: 'Formato no aceptado.',
  413: MSG.cuerpoDemasiadoGrande,
  415: 'Tipo de contenido no admitido.',
  429: MSG.demasiadasSolicitudes,
};

/** 4xx carry a stable code and a Spanish message; 5xx never leak internals. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
      return reply
        .status(error.statusCode)
        .send({ code: error.code, msg: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        errors[field] ??= issue.message ?? MSG.datosInvalidos;
      }
      const first = error.validation[0]?.message;
      const msg = first && !first.startsWith('Entrada inválida') ? first : MSG.datosInvalidos;
      return reply.status(400).send({ code: 'VALIDATION', msg, errors });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const msg = CLIENT_ERROR_MESSAGES[status] ?? MSG.datosInvalidos;
      return reply.status(status).send({ code: error.code ?? 'BAD_REQUEST', msg });
    }
    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, 'base de datos no disponible');
      return reply
        .status(503)
        .send({ code: 'UNAVAILABLE', msg: MSG.servicioNoDisponible, soporte: request.id });
    }
    // The request's id is on this log line (reqId) and in the answer: support finds the call by it.
    request.log.error({ err: error }, 'error no controlado');
    return reply.status(500).send({ code: 'INTERNAL', msg: MSG.errorInterno, soporte: request.id });
  });
}
