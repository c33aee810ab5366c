/**
 * A client's single sign-on configuration (issue 40 item 4, decision 0120), set by the distributor's
 * administrator, or by the client's own administrator when its client allows `identidad` (decision 0122):
 * its provider's issuer, the client id and secret the provider gave the portal (the secret
 * sealed, never sent back), the e-mail domains it covers (each belongs to one client), whether password
 * sign-in is refused for the client's users and whether a first sign-in creates the account.
 */
import type { SsoConfigBody, SsoConfigView } from '@portal/shared/schemas/sso';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { clientExists } from '../../db/clients.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { isClientAdmin } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { sealSecret, ssoContext } from '../../lib/secret-box.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { issuerRefusal } from './oidc.ts';
import * as repo from './sso.repository.ts';

/** The body as the route's schema hands it over: domains normalised, switches with their defaults. */
type ConfigBody = z.output<typeof SsoConfigBody>;

/** Where the provider sends the person back: the redirect URI to register at the provider. */
export function returnUrl(config: Pick<Deps['config'], 'PUBLIC_URL'>): string {
  return `${config.PUBLIC_URL}/api/sso/retorno`;
}

const clientNotFound = () => notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
const notConfigured = () => notFound(MSG.ssoNoConfigurado, 'SSO_NOT_CONFIGURED');

function view(deps: Pick<Deps, 'config'>, row: repo.SsoConfigRow): SsoConfigView {
  return {
    emisor: row.emisor,
    id_cliente: row.idClienteOidc,
    tiene_secreto: row.secretoCifrado !== '',
    dominios: row.dominios,
    obligatorio: row.obligatorio,
    alta_automatica: row.altaAutomatica,
    activo: row.activo,
    url_retorno: returnUrl(deps.config),
    actualizado: row.updatedAt.toISOString(),
  };
}

/** GET /api/clients/:id/sso: 404 for a client that does not exist or has no configuration. */
export async function getSsoConfig(deps: Pick<Deps, 'db' | 'config'>, idCliente: number) {
  if (!(await clientExists(deps.db, idCliente))) throw clientNotFound();
  const row = await repo.findConfig(deps.db, idCliente);
  if (!row) throw notConfigured();
  return view(deps, row);
}

/**
 * PUT /api/clients/:id/sso: creates or replaces the configuration. The issuer must be https on a public
 * address (unless SSO_ALLOW_PRIVATE); the secret is required the first time and kept when left empty; a
 * domain another client already signs in with is refused.
 */
export async function saveSsoConfig(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'keys'>,
  request: FastifyRequest,
  auth: AuthContext,
  idCliente: number,
  input: ConfigBody,
): Promise<SsoConfigView> {
  if (!(await clientExists(deps.db, idCliente))) throw clientNotFound();
  const refusal = await issuerRefusal(input.emisor, deps.config);
  if (refusal) throw badRequest('VALIDATION', refusal, { emisor: refusal });
  const secreto = input.secreto?.trim() ?? '';
  const now = deps.clock.now();
  try {
    const saved = await deps.db.transaction(async (tx) => {
      const before = await repo.findConfig(tx, idCliente);
      if (!secreto && !before)
        throw badRequest('VALIDATION', MSG.ssoSecretoRequerido, { secreto: MSG.ssoSecretoRequerido });
      if (isClientAdmin(auth)) {
        const refused = await domainsRefusedToClientAdmin(tx, idCliente, input.dominios, before);
        if (refused.length > 0) throw domainNotAllowed(refused);
      }
      const taken = await repo.domainsOfOthers(tx, idCliente, input.dominios);
      if (taken.length > 0) throw domainTaken();
      const row = await repo.saveConfig(
        tx,
        {
          idCliente,
          emisor: input.emisor,
          idClienteOidc: input.id_cliente,
          secretoCifrado: secreto
            ? sealSecret(deps.keys.encryption, secreto, ssoContext(idCliente))
            : before!.secretoCifrado,
          dominios: input.dominios,
          obligatorio: input.obligatorio,
          altaAutomatica: input.alta_automatica,
          activo: input.activo,
        },
        now,
      );
      // What changed, never the secret itself: only whether a new one was given.
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'sso_configurado',
        description: `Inicio de sesión con la cuenta de la empresa ${before ? 'modificado' : 'configurado'}: ${input.emisor} (${input.dominios.join(', ')})`,
        metadata: {
          id_cliente: idCliente,
          emisor: input.emisor,
          id_cliente_oidc: input.id_cliente,
          dominios: input.dominios,
          obligatorio: input.obligatorio,
          alta_automatica: input.alta_automatica,
          activo: input.activo,
          secreto_nuevo: Boolean(secreto),
          ...requestMeta(request),
        },
      });
      return row;
    });
    return view(deps, saved);
  } catch (err) {
    // Two clients saving the same domain at once: the second one meets the first one's row.
    if (isUniqueViolation(err, 'client_sso_domains_pkey')) throw domainTaken();
    throw err;
  }
}

/**
 * The domains a client administrator (rol 5) may not save: a domain is a claim on everyone who types an
 * address of it at the sign-in page (the offer to enter through the client's provider), so from inside a
 * client only the domains its configuration already has and those of its administrators' e-mails (accounts
 * the distributor makes) may be used; another company's domain is the distributor's to add.
 */
async function domainsRefusedToClientAdmin(
  tx: Tx,
  idCliente: number,
  dominios: string[],
  before: repo.SsoConfigRow | undefined,
): Promise<string[]> {
  const vouched = new Set([...(before?.dominios ?? []), ...(await repo.clientAdminDomains(tx, idCliente))]);
  return dominios.filter((d) => !vouched.has(d));
}

function domainNotAllowed(dominios: string[]) {
  const msg = MSG.ssoDominioNoPermitido(dominios);
  return badRequest('SSO_DOMAIN_NOT_ALLOWED', msg, { dominios: msg });
}

function domainTaken() {
  return badRequest('SSO_DOMAIN_TAKEN', MSG.ssoDominioEnUso, { dominios: MSG.ssoDominioEnUso });
}

/** DELETE /api/clients/:id/sso: the client's users sign in with their passwords again. */
export async function deleteSsoConfig(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  idCliente: number,
): Promise<void> {
  if (!(await clientExists(deps.db, idCliente))) throw clientNotFound();
  await deps.db.transaction(async (tx) => {
    const before = await repo.findConfig(tx, idCliente);
    if (!before || !(await repo.deleteConfig(tx, idCliente))) throw notConfigured();
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'sso_eliminado',
      description: `Inicio de sesión con la cuenta de la empresa eliminado: ${before.emisor}`,
      metadata: {
        id_cliente: idCliente,
        emisor: before.emisor,
        dominios: before.dominios,
        ...requestMeta(request),
      },
    });
  });
}
