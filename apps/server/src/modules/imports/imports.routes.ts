import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  ImportAccepted,
  ImportDetail,
  ImportKind,
  ImportListQuery,
  ImportListResponse,
  ImportPricePreview,
  TemplateBody,
} from '@portal/shared/schemas/imports';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient } from '../../lib/client-scope.ts';
import {
  acceptUpload,
  CLIENT_ADMIN_IMPORTS,
  defineImportJobs,
  importDetail,
  importErrorsCsv,
  listImports,
  previewProductImport,
  templateCsv,
} from './imports.service.ts';

const errors = errorResponses(400, 401, 403, 404, 413, 415);

/**
 * Rol 4, and rol 5 for its own client's users and assignments (decision 0122): CSV templates, uploads
 * processed by a background job, and their results (docs/domain.md "Imports").
 */
export async function importRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['importaciones'];
  defineImportJobs(app.deps);

  const readers = app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente] });
  /** Who may import a kind: a client administrator its people and their products, with the permission each needs. */
  const importerOf = (kind: ImportKind) => {
    const permiso = CLIENT_ADMIN_IMPORTS[kind];
    return permiso
      ? app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente], clientPermission: permiso })
      : admin;
  };
  for (const kind of ImportKind.options) {
    const importer = importerOf(kind);
    r.post(
      `/api/template/${kind}`,
      {
        preValidation: importer,
        schema: {
          tags,
          summary: `Plantilla CSV de ${kind} (UTF-8 con BOM: encabezado y una fila de ejemplo)`,
          body: TemplateBody,
        },
      },
      async (request, reply) => {
        const idCliente = scopedClient(request.auth!, request.body.id_cliente)!;
        const { filename, body } = await templateCsv(app.deps, kind, idCliente);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(body);
      },
    );

    r.post(
      `/api/load/${kind}`,
      {
        preValidation: importer,
        schema: {
          tags,
          summary: `Carga un CSV de ${kind} (multipart: file, id_cliente); se procesa en segundo plano`,
          consumes: ['multipart/form-data'],
          response: { 202: ImportAccepted, ...errors },
        },
      },
      async (request, reply) => reply.status(202).send(await acceptUpload(app.deps, request, kind)),
    );
  }

  r.post(
    '/api/importaciones/productos/vista_previa',
    {
      // Whoever may upload a product file may see first what its prices would touch.
      preValidation: importerOf('productos'),
      schema: {
        tags,
        summary:
          'Vista previa de los precios de un CSV de productos (multipart: file, id_cliente); no guarda nada',
        description:
          'Lee el archivo como su importación (mismas columnas, validaciones y límites) y responde lo que tocarían los precios que cambian: productos, carritos, listas guardadas, pedidos por autorizar y el total del carrito de cada comprador antes y después; además las filas leídas, las que tienen errores (la importación las detalla), los precios que cambian hoy y los programados, y los productos nuevos.',
        consumes: ['multipart/form-data'],
        response: { 200: ImportPricePreview, ...errors },
      },
    },
    async (request) => previewProductImport(app.deps, request),
  );

  r.get(
    '/api/importaciones',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'Importaciones, las más recientes primero (10 por página)',
        querystring: ImportListQuery,
        response: { 200: ImportListResponse, ...errors },
      },
    },
    async (request) => listImports(app.deps, request.auth!, request.query),
  );

  r.get(
    '/api/importaciones/:id',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'Una importación con sus errores por fila',
        params: IdParam,
        response: { 200: ImportDetail, ...errors },
      },
    },
    async (request) => importDetail(app.deps, request.auth!, request.params.id),
  );

  r.get(
    '/api/importaciones/:id/errores.csv',
    {
      preValidation: readers,
      schema: { tags, summary: 'Reporte CSV de los errores por fila de una importación', params: IdParam },
    },
    async (request, reply) => {
      const body = await importErrorsCsv(app.deps, request.auth!, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="errores_importacion_${request.params.id}.csv"`)
        .send(body);
    },
  );
}
