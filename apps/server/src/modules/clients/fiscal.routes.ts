import { ROLES } from '@portal/shared/domain/roles';
import { ClientFiscalResponse } from '@portal/shared/schemas/clients';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import { ClientFiscalBody, V1ClientFiscal } from '@portal/shared/schemas/fiscal';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient } from '../../lib/client-scope.ts';
import { MSG } from '../../messages.ts';
import { bearerGuard } from '../integration/api-auth.ts';
import { getV1ClientFiscal, updateFiscalData } from './fiscal.service.ts';

/**
 * A client's fiscal data (issue 42 item 1, decision 0128): changed by rol 4 for any client and by rol 5 for
 * its own when its client allows `fiscales` (another client's id answers like a missing one); read by a v1
 * token with `pedidos:leer` (a client's token, its own client only).
 */
export async function clientFiscalRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/api/clientes/:id/datos-fiscales',
    {
      preValidation: app.guard({
        roles: [ROLES.administrador, ROLES.administradorCliente],
        clientPermission: 'fiscales',
      }),
      schema: {
        tags: ['administracion'],
        summary:
          'Cambia los datos fiscales del cliente: rfc, razon_social, regimen_fiscal, uso_cfdi, cp_fiscal, correos_facturacion (ausente conserva; null o vacío lo quita)',
        params: IdParam,
        body: ClientFiscalBody,
        response: { 200: ClientFiscalResponse, ...errorResponses(400, 401, 403, 404, 419) },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: MSG.modificadoCorrectamente,
      cliente: await updateFiscalData(
        app.deps,
        request,
        request.auth!,
        scopedClient(request.auth!, request.params.id)!,
        request.body,
      ),
    }),
  );

  r.get(
    '/api/v1/clientes/:id/datos-fiscales',
    {
      onRequest: bearerGuard(app, 'pedidos:leer'),
      schema: {
        tags: ['api v1'],
        security: [{ bearer: [] }],
        summary: 'Los datos fiscales de un cliente, para facturarle (permiso pedidos:leer)',
        description:
          'RFC, razón social, régimen fiscal y uso de CFDI (claves del catálogo del SAT, con su nombre), código postal fiscal y correos de facturación; null cuando el cliente no los tiene. ' +
          '`completos` dice si están todos los datos que un CFDI 4.0 pide del receptor. Un token de un cliente solo lee su propio cliente: otro id responde 404 como uno inexistente.',
        params: IdParam,
        response: { 200: V1ClientFiscal, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => getV1ClientFiscal(app.deps, request.apiCaller!, request.params.id),
  );
}
