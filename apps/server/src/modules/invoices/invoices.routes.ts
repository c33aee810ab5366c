import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  AcceptDifferenceBody,
  InvoiceAccepted,
  InvoiceBody,
  InvoiceDto,
  InvoiceRegistered,
  InvoicesPage,
  InvoicesQuery,
  InvoiceUuidParam,
  OrderInvoiceParams,
  OrderInvoices,
} from '@portal/shared/schemas/invoices';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../lib/errors.ts';
import { compiledResponse } from '../../lib/response-serializer.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { bearerGuard } from '../integration/api-auth.ts';
import type { OrderScope } from '../orders/order.repository.ts';
import {
  acceptInvoiceDifference,
  listInvoices,
  orderInvoices,
  postInvoice,
  sendInvoiceFile,
  uploadInvoice,
} from './invoice-routes.service.ts';
import { invoiceByUuid } from './invoices.service.ts';

/** A JSON post carries the XML (≤ 2 MB, checked with a Spanish 400) and a PDF in base64 (≤ 5 MB). */
const V1_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * CFDI 4.0 invoices received (issue 42 item 2, decision 0131): the ERP's v1 post and reads (facturas:escribir,
 * facturas:leer) and the operator's (rol 4) upload, list and downloads in the fulfilment area; the operator's
 * acceptance of a match's differences, and the order's invoices for the client's people (decision 0133).
 */
export async function invoiceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const v1 = { tags: ['api v1'], security: [{ bearer: [] }] };
  const read = bearerGuard(app, 'facturas:leer');

  r.post(
    '/api/v1/facturas',
    {
      onRequest: bearerGuard(app, 'facturas:escribir'),
      bodyLimit: V1_BODY_LIMIT,
      schema: {
        ...v1,
        summary:
          'Registra un CFDI 4.0 timbrado de un pedido: factura (I), nota de crédito (E) o complemento de pago (P) (permiso facturas:escribir)',
        description:
          'Cuerpo: pedido (id), envio (id de un envío del pedido, opcional), xml (el CFDI como texto, hasta 2 MB) y pdf_base64 (opcional, hasta 5 MB). ' +
          'Se rechaza con 400 y un mensaje que nombra el campo: XML con DTD o entidades, mal formado o de más de 2 MB; Version distinta de 4.0; sin TimbreFiscalDigital; ' +
          'receptor con otro RFC que el del cliente; moneda distinta de MXN; una nota de crédito sin factura relacionada (TipoRelacion 01); un pago a una factura no registrada o por más de su saldo. ' +
          '409 si el UUID ya está registrado (de dos envíos a la vez, uno gana). 404 para un pedido de otro cliente. Idempotente con Idempotency-Key. ' +
          'Emite el webhook factura.registrada (y pago.aplicado para un complemento de pago).',
        body: InvoiceBody,
        response: { 201: InvoiceRegistered, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429) },
      },
    },
    async (request, reply) => postInvoice(app.deps, request, reply, request.apiCaller!, request.body),
  );

  r.get(
    '/api/v1/facturas',
    {
      onRequest: read,
      schema: {
        ...v1,
        summary:
          'CFDI registrados, del más antiguo al más reciente, con paginación por cursor (permiso facturas:leer)',
        description:
          'Filtros: pedido (id) y tipo (I, E, P). La respuesta trae `siguiente`: pásalo como `cursor` para la página siguiente (null en la última).',
        querystring: InvoicesQuery,
        // An ERP's page is 50 CFDIs with their concepts (about 200 kB): serialised by the compiled function.
        response: { 200: compiledResponse(InvoicesPage), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => listInvoices(app.deps, request.apiCaller!, request.query),
  );

  r.get(
    '/api/v1/facturas/:uuid',
    {
      onRequest: read,
      schema: {
        ...v1,
        summary: 'Un CFDI por su UUID, con conceptos, saldo y aplicaciones (permiso facturas:leer)',
        params: InvoiceUuidParam,
        response: { 200: InvoiceDto, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const caller = request.apiCaller!;
      return invoiceByUuid(app.deps.db, request.params.uuid, {
        ...(caller.idCliente !== null ? { idCliente: caller.idCliente } : {}),
      });
    },
  );

  const tags = ['surtido'];
  r.post(
    '/api/surtido/:id/facturas',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Sube un CFDI 4.0 timbrado de un pedido aprobado (multipart: xml y, opcional, pdf y envio); las mismas revisiones que la API v1',
        params: IdParam,
        response: { 200: InvoiceRegistered, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 419) },
      },
    },
    async (request) => uploadInvoice(app.deps, request, request.auth!, request.params.id),
  );

  r.post(
    '/api/surtido/:id/facturas/:uuid/aceptar-diferencia',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Acepta las diferencias del cotejo de una factura con un motivo (solo desde «con diferencias»; 409 si ya se resolvió)',
        params: OrderInvoiceParams,
        body: AcceptDifferenceBody,
        response: { 200: InvoiceAccepted, ...errorResponses(400, 401, 403, 404, 409, 419) },
      },
    },
    async (request) =>
      acceptInvoiceDifference(app.deps, request, request.auth!, request.params, request.body),
  );

  // The order's CFDIs and their files: the operator's of any order, and, as they read the order itself, the
  // buyer's own orders, the approvers' and the client administrator's (with `fiscales`) of their client's.
  const clientOf = (auth: AuthContext): OrderScope => {
    if (!auth.client) throw forbidden();
    return { idCliente: auth.client.id };
  };
  const readers = [
    { prefix: '/api/surtido', guard: operator, tags, scope: (): OrderScope => ({}) },
    {
      prefix: '/api/historial',
      guard: app.guard({ roles: [ROLES.usuario] }),
      tags: ['compras'],
      scope: (auth: AuthContext): OrderScope => ({ idUser: auth.user.id }),
    },
    {
      prefix: '/api/pedidos',
      guard: app.guard({ roles: [ROLES.autorizador, ROLES.superAutorizador] }),
      tags: ['autorizacion'],
      scope: clientOf,
    },
    {
      prefix: '/api/cliente/pedidos',
      guard: app.guard({ roles: [ROLES.administradorCliente], clientPermission: 'fiscales' }),
      tags: ['cliente'],
      scope: clientOf,
    },
  ];
  for (const reader of readers) {
    r.get(
      `${reader.prefix}/:id/facturas`,
      {
        preValidation: reader.guard,
        schema: {
          tags: reader.tags,
          summary:
            'Los CFDI registrados de un pedido, con su cotejo, diferencias y enlace de verificación del SAT',
          params: IdParam,
          response: { 200: OrderInvoices, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => orderInvoices(app.deps, request.params.id, reader.scope(request.auth!)),
    );
    for (const which of ['xml', 'pdf'] as const)
      r.get(
        `${reader.prefix}/:id/facturas/:uuid/${which}`,
        {
          preValidation: reader.guard,
          schema: {
            tags: reader.tags,
            summary: `Descarga el ${which.toUpperCase()} de un CFDI del pedido`,
            params: OrderInvoiceParams,
            response: errorResponses(400, 401, 403, 404),
          },
        },
        async (request, reply) =>
          sendInvoiceFile(app.deps, reply, request.params, which, reader.scope(request.auth!)),
      );
  }
}
