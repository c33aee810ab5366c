import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  V1ClaimsQuery,
  V1ClaimsResponse,
  V1Order,
  V1OrdersQuery,
  V1OrdersResponse,
} from '@portal/shared/schemas/integration';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerGuard } from './api-auth.ts';
import { getV1Order, listV1Claims, listV1Orders } from './v1.service.ts';

const errors = errorResponses(400, 401, 403, 404, 429);
/** The OpenAPI security requirement of every v1 route (the scheme is declared in app.ts). */
const security = [{ bearer: [] }];

/**
 * The versioned integration API (decision 0059): `Authorization: Bearer <token>`, no cookie, no XSRF,
 * rate-limited per token. A client's token sees only its client's orders; another client's id answers 404.
 */
export async function v1Routes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['api v1'];
  const read = bearerGuard(app, 'pedidos:leer');

  r.get(
    '/api/v1/pedidos',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary: 'Pedidos, del más antiguo al más reciente, con paginación por cursor (permiso pedidos:leer)',
        description:
          'Filtros: estatus (pendiente, espera, aprobado, cancelado), surtido (por_surtir, en_surtido, enviado, entregado), credito (retenido: retenidos por crédito ahora; libre: los demás), desde/hasta (AAAA-MM-DD, fecha de compra en la zona del negocio). ' +
          'La respuesta trae `siguiente`: pásalo como `cursor` para la página siguiente (null en la última). ' +
          'Cada pedido trae `credito`: si está retenido por crédito, por qué, desde cuándo y cuándo se liberó. ' +
          'Los importes van en centavos enteros, tal como se guardaron. 429 con Retry-After al pasar el límite por minuto del token.',
        querystring: V1OrdersQuery,
        response: { 200: V1OrdersResponse, ...errors },
      },
    },
    async (request) => listV1Orders(app.deps, request.apiCaller!, request.query),
  );

  r.get(
    '/api/v1/pedidos/:id',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary:
          'Un pedido con sus líneas, totales, comprador, cliente, crédito y eventos (permiso pedidos:leer)',
        params: IdParam,
        response: { 200: V1Order, ...errors },
      },
    },
    async (request) => getV1Order(app.deps, request.apiCaller!, request.params.id),
  );

  r.get(
    '/api/v1/reclamos',
    {
      onRequest: read,
      schema: {
        tags,
        security,
        summary:
          'Reclamos de los pedidos, del más antiguo al más reciente, con paginación por cursor (permiso pedidos:leer)',
        description:
          'Filtros: estado (abierto, devolucion, aceptado, rechazado) y desde (AAAA-MM-DD: reclamos cuyo último cambio, `actualizado`, es de esa fecha o posterior, en la zona del negocio). ' +
          'Cada reclamo trae su pedido (id_pedido, numero_pedido), su cliente, sus líneas, su estado, lo solicitado y lo resuelto, y credito_centavos. ' +
          'La respuesta trae `siguiente`: pásalo como `cursor` para la página siguiente (null en la última). Un token de un cliente ve solo los reclamos de ese cliente.',
        querystring: V1ClaimsQuery,
        response: { 200: V1ClaimsResponse, ...errors },
      },
    },
    async (request) => listV1Claims(app.deps, request.apiCaller!, request.query),
  );
}
