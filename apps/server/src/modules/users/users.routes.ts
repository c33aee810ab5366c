import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import { RosterSyncResponse } from '@portal/shared/schemas/roster-sync';
import {
  BulkDeactivateBody,
  BulkDeactivateResponse,
  ResendAccessBody,
  ResendAccessResponse,
  UnsentAccessResponse,
  UserBody,
  UserCreateResponse,
  UserResponse,
  UsersQuery,
  UsersResponse,
  UserUpdateResponse,
} from '@portal/shared/schemas/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient, userInScope } from '../../lib/client-scope.ts';
import { notFound } from '../../lib/errors.ts';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { MSG } from '../../messages.ts';
import { resendAccess, unsentAccess } from './access.service.ts';
import { syncRoster } from './roster-sync.service.ts';
import { listUsers, userDetail } from './users.repository.ts';
import {
  adminResetPassword,
  createUser,
  deactivateUsers,
  pendingBudgetMessage,
  updateUser,
} from './users.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

/**
 * Rol 4: users of the clients (administrators are never listed nor editable here). Rol 5, a client's own
 * administrator, the same routes within its client (lib/client-scope.ts, decision 0122): it reads them, and
 * changes them when its client allows `usuarios`.
 */
export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admins = [ROLES.administrador, ROLES.administradorCliente] as const;
  const reader = app.guard({ roles: admins });
  const admin = app.guard({ roles: admins, clientPermission: 'usuarios' });
  const distributor = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/usuarios',
    {
      preValidation: reader,
      schema: {
        tags,
        summary:
          'Usuarios de un cliente (10 por página): búsqueda por usuario, nombre o correo, filtros por rol y estado, orden por usuario, nombre o último acceso',
        querystring: UsersQuery,
        response: { 200: compiledResponse(UsersResponse), ...errors },
      },
    },
    async (request) =>
      listUsers(app.db, {
        ...request.query,
        id_cliente: scopedClient(request.auth!, request.query.id_cliente),
      }),
  );

  r.get(
    '/api/usuarios/:id',
    {
      preValidation: reader,
      schema: {
        tags,
        summary: 'Un usuario con todos sus campos',
        params: IdParam,
        response: { 200: UserResponse, ...errors },
      },
    },
    async (request) => {
      const usuario = await userDetail(app.db, request.params.id);
      if (!usuario || !userInScope(request.auth!, { idCliente: usuario.id_cliente, rol: usuario.rol }))
        throw notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');
      return { usuario };
    },
  );

  r.post(
    '/api/usuarios',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Crea un usuario; recibe por correo un enlace de un solo uso (72 h) para su contraseña',
        body: UserBody,
        response: { 201: UserCreateResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { usuario, pendiente } = await createUser(app.deps, request, request.auth!, request.body);
      const msg =
        pendiente === null
          ? MSG.creadoCorrectamente
          : `${MSG.creadoCorrectamente}. ${await pendingBudgetMessage(app.db, usuario.id_cliente, pendiente)}`;
      return reply.status(201).send({
        status: 'ok',
        msg,
        usuario,
        presupuesto_pendiente: pendiente === null ? null : pendiente / 100,
      });
    },
  );

  r.put(
    '/api/usuarios/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Modifica, activa o desactiva un usuario (desactivar cierra sus sesiones)',
        params: IdParam,
        body: UserBody,
        response: { 200: UserUpdateResponse, ...errors },
      },
    },
    async (request) => updateUser(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.post(
    '/api/usuarios/desactivar_lote',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Desactiva hasta 500 usuarios de un cliente y cierra sus sesiones, en una transacción (con vista_previa, solo cuenta)',
        body: BulkDeactivateBody,
        response: { 200: BulkDeactivateResponse, ...errors },
      },
    },
    async (request) => deactivateUsers(app.deps, request, request.auth!, request.body),
  );

  r.get(
    '/api/usuarios/accesos-sin-enviar',
    {
      preValidation: distributor,
      schema: {
        tags,
        summary:
          'Usuarios sin contraseña cuyo correo de acceso sigue sin enviarse a los 10 minutos (o no hay SMTP configurado)',
        response: { 200: UnsentAccessResponse, ...errors },
      },
    },
    async () => unsentAccess(app.deps),
  );

  r.post(
    '/api/usuarios/reenviar-acceso',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Reenvía un enlace de bienvenida nuevo (72 h) a hasta 500 usuarios de un cliente; los enlaces anteriores dejan de servir',
        description:
          'Se omiten, con su motivo, los usuarios desactivados, los que ya establecieron su contraseña y los que no tienen correo.',
        body: ResendAccessBody,
        response: { 200: ResendAccessResponse, ...errors },
      },
    },
    async (request) => resendAccess(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/cliente/sincronizar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Aplica la lista completa de personal de un cliente (CSV: usuario, correo, nombre, rol opcional): altas, cambios y bajas; con vista_previa=1 solo informa',
        description:
          'multipart/form-data: `archivo` (CSV UTF-8), `vista_previa` (1 = no cambia nada) e `id_cliente` (el distribuidor; el administrador de cliente, el suyo). Quien falta en la lista y está activo (roles 1 a 3) se desactiva: sus sesiones terminan y sus pedidos en espera se retiran. Una lista con errores no cambia nada.',
        response: { 200: RosterSyncResponse, ...errors },
      },
    },
    async (request) => syncRoster(app.deps, request, request.auth!),
  );

  r.post(
    '/api/recuperar/password/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Restablece la contraseña con una temporal enviada por correo (se cambia al iniciar sesión)',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await adminResetPassword(app.deps, request, request.auth!, request.params.id);
      return { status: 'ok' as const, msg: MSG.correoPasswordTemporal };
    },
  );
}
