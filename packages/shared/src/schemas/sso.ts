/**
 * Single sign-on with a client's own identity provider (OpenID Connect, issue 40 item 4; decision 0120).
 * The distributor's administrator sets it per client; the sign-in page offers «Entrar con tu cuenta de la
 * empresa» once the typed e-mail's domain is one of the client's.
 */
import { z } from 'zod';
import { isEmailAddress } from '../domain/email.ts';
import { normalizeDomain } from '../domain/sso.ts';
import { MSG } from '../messages.ts';
import { optionalBoolean } from './form-fields.ts';

export const SSO_DOMAINS_MAX = 10;

/** A bare e-mail domain, lower case: `empresa.com.mx` (no scheme, no @, no port). */
const DOMAIN = /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const Dominios = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(/[\s,;]+/) : v),
  z
    .array(z.string({ error: MSG.ssoDominiosInvalidos }).transform(normalizeDomain), {
      error: MSG.ssoDominiosInvalidos,
    })
    .transform((list) => [...new Set(list.filter(Boolean))])
    .refine((list) => list.length >= 1 && list.length <= SSO_DOMAINS_MAX, MSG.ssoDominiosInvalidos)
    .refine((list) => list.every((d) => DOMAIN.test(d)), MSG.ssoDominiosInvalidos),
);

/**
 * PUT /api/clients/:id/sso: the client's provider. `emisor` is the issuer URL as the provider publishes it
 * (its discovery document is `emisor` + `/.well-known/openid-configuration`); `secreto` may be left out or
 * empty to keep the stored one (it is never sent back), and is required the first time.
 */
export const SsoConfigBody = z.object({
  emisor: z
    .string({ error: MSG.ssoEmisorInvalido })
    .trim()
    .max(500, MSG.ssoEmisorInvalido)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), MSG.ssoEmisorInvalido),
  id_cliente: z
    .string({ error: MSG.ssoIdClienteInvalido })
    .trim()
    .min(1, MSG.ssoIdClienteInvalido)
    .max(200, MSG.ssoIdClienteInvalido),
  secreto: z.string({ error: MSG.ssoSecretoInvalido }).max(500, MSG.ssoSecretoInvalido).optional(),
  dominios: Dominios,
  /** Password sign-in is refused for the client's roles 1–3: they sign in through the provider only. */
  obligatorio: optionalBoolean().default(false),
  /** A verified e-mail of the client's domains with no account gets one (rol 1, the client's defaults). */
  alta_automatica: optionalBoolean().default(false),
  activo: optionalBoolean().default(true),
});
export type SsoConfigBody = z.input<typeof SsoConfigBody>;

/** GET /api/clients/:id/sso (404 when the client has none): the secret never leaves the server. */
export const SsoConfigView = z.object({
  emisor: z.string(),
  id_cliente: z.string(),
  tiene_secreto: z.boolean(),
  dominios: z.array(z.string()),
  obligatorio: z.boolean(),
  alta_automatica: z.boolean(),
  activo: z.boolean(),
  /** The address to register at the provider as the redirect URI (PUBLIC_URL + /api/sso/retorno). */
  url_retorno: z.string(),
  actualizado: z.string(),
});
export type SsoConfigView = z.infer<typeof SsoConfigView>;

/** POST /api/sso/descubrir: does this e-mail's domain sign in through its company's provider? */
export const SsoDiscoverBody = z.object({
  correo: z
    .string({ error: MSG.ssoCorreoInvalido })
    .trim()
    .max(200, MSG.ssoCorreoInvalido)
    .refine(isEmailAddress, MSG.ssoCorreoInvalido),
});
export type SsoDiscoverBody = z.infer<typeof SsoDiscoverBody>;

export const SsoDiscoverResponse = z.object({ sso: z.boolean(), obligatorio: z.boolean() });
export type SsoDiscoverResponse = z.infer<typeof SsoDiscoverResponse>;
