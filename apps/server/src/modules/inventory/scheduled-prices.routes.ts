import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  CancelPriceQuery,
  PricePreviewBody,
  PricePreviewResponse,
  ScheduledPriceResponse,
  SchedulePriceBody,
} from '@portal/shared/schemas/inventory';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelScheduledPrice,
  defineScheduledPricesJob,
  pricePreview,
  schedulePrice,
} from './scheduled-prices.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Rol 4: scheduled price changes of a client's products and their preview (decision 0132); the daily job. */
export async function scheduledPriceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['inventario'];
  defineScheduledPricesJob(app.deps);

  r.post(
    '/api/productos/:id/precio_programado',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Programa el precio de un producto desde una fecha posterior a hoy (AAAA-MM-DD); reemplaza el cambio pendiente',
        params: IdParam,
        body: SchedulePriceBody,
        response: { 200: ScheduledPriceResponse, ...errors },
      },
    },
    async (request) => schedulePrice(app.deps, request, request.params.id, request.body),
  );

  r.delete(
    '/api/productos/:id/precio_programado',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Cancela el cambio de precio programado de un producto',
        params: IdParam,
        querystring: CancelPriceQuery,
        response: { 200: ScheduledPriceResponse, ...errors },
      },
    },
    async (request) => cancelScheduledPrice(app.deps, request, request.params.id, request.query.id_cliente),
  );

  r.post(
    '/api/productos/precios/vista_previa',
    {
      preValidation: admin,
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags,
        summary:
          'Qué tocaría un cambio de precios: carritos, listas y pedidos por autorizar con esos productos, y el total del carrito de cada comprador antes y después',
        body: PricePreviewBody,
        response: { 200: PricePreviewResponse, ...errors },
      },
    },
    async (request) => pricePreview(app.deps, request.body),
  );
}
