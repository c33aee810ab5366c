import { Readable } from 'node:stream';
import { ROLES } from '@portal/shared/domain/roles';
import { MAX_ID } from '@portal/shared/limits';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clients } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { isSafeFileId, openFile } from '../../lib/files.ts';
import type { Guard } from '../../plugins/auth-guard.ts';

/**
 * Images are public by content-hash name (unguessable, immutable, cached for a year): logos must show on
 * the sign-in page's session too. Client documents (calendar, manual) are only for that client's users
 * and administrators; another client's id answers like a missing one. A file is streamed to the answer as
 * it is read back from the database, a part at a time (decision 0119): a 20 MB manual is never one buffer.
 */
export async function fileRoutes(app: FastifyInstance, opts: { guard: Guard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/img/:imagen',
    {
      schema: {
        tags: ['archivos'],
        summary: 'Imagen por su nombre de contenido',
        params: z.object({ imagen: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const { imagen } = request.params;
      if (!isSafeFileId(imagen) || /\.(pdf|csv|heic)$/.test(imagen)) throw notFound();
      const file = await openFile(app.db, imagen);
      // A receipt's or a claim's photo is served only to who may see its order (decision 0127).
      if (!file?.mime.startsWith('image/') || file.kind === 'foto') throw notFound();
      return reply
        .header('content-type', file.mime)
        .header('content-length', file.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(file.parts()));
    },
  );

  r.get(
    '/api/resource/:clientId/:documento',
    {
      preValidation: opts.guard(),
      schema: {
        tags: ['archivos'],
        summary: 'Calendario o manual (PDF) de un cliente',
        params: z.object({
          clientId: z.coerce.number().int().positive().max(MAX_ID),
          documento: z.enum(['calendario', 'manual']),
        }),
      },
    },
    async (request, reply) => {
      const { clientId, documento } = request.params;
      const auth = request.auth!;
      if (auth.user.rol !== ROLES.administrador && auth.user.idCliente !== clientId) throw notFound();
      const [client] = await app.db
        .select({ calendario: clients.calendario, manual: clients.manual, nombre: clients.nombre })
        .from(clients)
        .where(eq(clients.id, clientId))
        .limit(1);
      const fileId = client?.[documento];
      if (!client || !fileId) throw notFound();
      const file = await openFile(app.db, fileId);
      if (!file) throw notFound();
      const name = `${documento}.pdf`;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, max-age=300')
        .send(Readable.from(file.parts()));
    },
  );
}
