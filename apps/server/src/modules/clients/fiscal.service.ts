/**
 * A client's fiscal data (issue 42 item 1, decision 0128): changed by the distributor (rol 4) for any client
 * and by a client administrator (rol 5) for its own when its client allows `fiscales`; read by the ERP
 * through the v1 API. The client form's own save (multipart) goes through clients.service.ts.
 */
import { regimenFiscal, tipoPersona, usoCfdi } from '@portal/shared/domain/fiscal';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { ClientFiscalBody, V1ClientFiscal } from '@portal/shared/schemas/fiscal';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { clients } from '../../db/schema/index.ts';
import { clientNotFound } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { iso } from '../../lib/form.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import type { ApiCaller } from '../integration/api-auth.ts';
import { changedFiscalFields, fiscalColumns, fiscalDto } from './client-fiscal.ts';
import { clientDto, writeClientChange } from './clients.service.ts';

/**
 * PUT /api/clientes/{id}/datos-fiscales: the fields given replace the client's (absent keep, null clears),
 * checked together with those it keeps. The log entry names the fields changed, never their values.
 */
export async function updateFiscalData(
  deps: Pick<Deps, 'db' | 'clock'>,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: ClientFiscalBody,
): Promise<ClientDto> {
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(clients).where(eq(clients.id, id)).for('update');
    if (!before) throw clientNotFound();
    const values = fiscalColumns(body, before);
    const campos = changedFiscalFields(before, values);
    if (campos.length === 0) return before;
    return writeClientChange(tx, deps, request, auth, before, values, {
      what: 'Datos fiscales modificados',
      campos,
    });
  });
  return clientDto(row);
}

/**
 * GET /api/v1/clientes/{id}/datos-fiscales: a client's token reads its own client only; another client's id
 * answers like a missing one (404).
 */
export async function getV1ClientFiscal(
  deps: Pick<Deps, 'db'>,
  caller: ApiCaller,
  id: number,
): Promise<V1ClientFiscal> {
  const [row] = await deps.db
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), caller.idCliente === null ? undefined : eq(clients.id, caller.idCliente)));
  if (!row) throw clientNotFound();
  const fiscal = fiscalDto(row);
  const regimen = fiscal.regimen_fiscal === null ? undefined : regimenFiscal(fiscal.regimen_fiscal);
  const uso = fiscal.uso_cfdi === null ? undefined : usoCfdi(fiscal.uso_cfdi);
  return {
    id_cliente: row.id,
    nombre: row.nombre,
    ...fiscal,
    tipo_persona: tipoPersona(fiscal.rfc),
    regimen_fiscal_nombre: regimen ? regimen.nombre : null,
    uso_cfdi_nombre: uso ? uso.nombre : null,
    completos: [
      fiscal.rfc,
      fiscal.razon_social,
      fiscal.regimen_fiscal,
      fiscal.uso_cfdi,
      fiscal.cp_fiscal,
    ].every((v) => v !== null),
    actualizado_en: iso(row.updatedAt),
  };
}
