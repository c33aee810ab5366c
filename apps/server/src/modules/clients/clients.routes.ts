import { ROLES } from '@portal/shared/domain/roles';
import {
  ClientAdminHomeResponse,
  ClientCreateResponse,
  ClientRulesBody,
  ClientRulesResponse,
  ClientSummaryResponse,
  ClientsQuery,
  ClientsResponse,
  ClientUpdateResponse,
} from '@portal/shared/schemas/clients';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '../../messages.ts';
import {
  clientAdminHome,
  clientSummary,
  createClient,
  listClients,
  updateClient,
  updateOwnRules,
} from './clients.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 415, 419);

/** Rol 4: clients with their logo, colours, documents, budget mode and limits. */
export async function clientRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/clientes',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Clientes (activos e inactivos), por nombre, paginados, con búsqueda por nombre',
        querystring: ClientsQuery,
        response: { 200: ClientsResponse, ...errors },
      },
    },
    async (request) => listClients(app.db, request.query),
  );

  r.get(
    '/api/cliente',
    {
      preValidation: app.guard({ roles: [ROLES.administradorCliente] }),
      schema: {
        tags,
        summary:
          'El cliente del administrador de cliente (rol 5): su configuración, lo que puede cambiar, sus usuarios por rol y sus presupuestos en espera',
        response: { 200: ClientAdminHomeResponse, ...errors },
      },
    },
    async (request) => clientAdminHome(app.db, request.auth!.user.idCliente!),
  );

  r.put(
    '/api/cliente/reglas',
    {
      preValidation: app.guard({ roles: [ROLES.administradorCliente], clientPermission: 'reglas' }),
      schema: {
        tags,
        summary:
          'El administrador de cliente (rol 5) cambia los niveles y las reglas de autorización de su cliente, si su cliente lo permite',
        body: ClientRulesBody,
        response: { 200: ClientRulesResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: MSG.modificadoCorrectamente,
      cliente: await updateOwnRules(app.deps, request, request.auth!, request.body),
    }),
  );

  r.get(
    '/api/clientes/:id/resumen',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Lo que toca desactivar el cliente: sus usuarios activos y cuántos tienen una sesión abierta (para la confirmación)',
        params: IdParam,
        response: { 200: ClientSummaryResponse, ...errors },
      },
    },
    async (request) => clientSummary(app.db, app.sessions.openCondition(), request.params.id),
  );

  r.post(
    '/api/clientes',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Crea un cliente (multipart: nombre, color, color2, presupuesto_default, limite_de_compras, modo_presupuesto, cantidad_autorizadores, mostrar_presupuesto_a_usuarios; archivos imagen, calendario, manual)',
        consumes: ['multipart/form-data'],
        response: { 201: ClientCreateResponse, ...errors },
      },
    },
    async (request, reply) => {
      const cliente = await createClient(app.deps, request, request.auth!);
      return reply.status(201).send({ status: 'ok', msg: MSG.creadoCorrectamente, cliente });
    },
  );

  r.post(
    '/api/clientes/update/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Modifica, activa o desactiva un cliente (multipart; un archivo ausente conserva el guardado; eliminar_imagen/eliminar_calendario/eliminar_manual = 1 lo quita)',
        consumes: ['multipart/form-data'],
        params: IdParam,
        response: { 200: ClientUpdateResponse, ...errors },
      },
    },
    async (request) => updateClient(app.deps, request, request.auth!, request.params.id),
  );
}
