import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  ImportAccepted,
  ImportDetail,
  ImportKind,
  ImportListQuery,
  ImportListResponse,
  TemplateBody,
} from '@portal/shared/schemas/imports';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  acceptUpload,
  defineImportJobs,
  importDetail,
  importErrorsCsv,
  listImports,
  templateCsv,
} from './imports.service.ts';

const errors = errorResponses(400, 401, 403, 404, 413, 415);

/** Rol 4: CSV templates, uploads processed by a background job, and their results (docs/domain.md "Imports"). */
export async function importRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['importaciones'];
  defineImportJobs(app.deps);

  for (const kind of ImportKind.options) {
    r.post(
      `/api/template/${kind}`,
      {
        preValidation: admin,
        schema: {
          tags,
          summary: `Plantilla CSV de ${kind} (UTF-8 con BOM: encabezado y una fila de ejemplo)`,
          body: TemplateBody,
        },
      },
      async (request, reply) => {
        const { filename, body } = await templateCsv(app.deps, kind, request.body.id_cliente);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(body);
      },
    );

    r.post(
      `/api/load/${kind}`,
      {
        preValidation: admin,
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

  r.get(
    '/api/importaciones',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Importaciones, las más recientes primero (10 por página)',
        querystring: ImportListQuery,
        response: { 200: ImportListResponse, ...errors },
      },
    },
    async (request) => listImports(app.deps, request.query),
  );

  r.get(
    '/api/importaciones/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Una importación con sus errores por fila',
        params: IdParam,
        response: { 200: ImportDetail, ...errors },
      },
    },
    async (request) => importDetail(app.deps, request.params.id),
  );

  r.get(
    '/api/importaciones/:id/errores.csv',
    {
      preValidation: admin,
      schema: { tags, summary: 'Reporte CSV de los errores por fila de una importación', params: IdParam },
    },
    async (request, reply) => {
      const body = await importErrorsCsv(app.deps, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="errores_importacion_${request.params.id}.csv"`)
        .send(body);
    },
  );
}
