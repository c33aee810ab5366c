/**
 * The values of a client's «Inicio de sesión de la empresa» (decision 0120): what the dialog holds for a
 * client with or without single sign-on, the body it sends and its checks before sending.
 */
import { MSG } from '@portal/shared/messages';
import type { SsoConfigBody, SsoConfigView } from '@portal/shared/schemas/sso';

export interface SsoFormValues {
  emisor: string;
  id_cliente: string;
  /** Empty keeps the stored secret; required while there is none. */
  secreto: string;
  /** The domains as typed: separated by commas, spaces or semicolons. */
  dominios: string;
  obligatorio: boolean;
  alta_automatica: boolean;
  activo: boolean;
}

export function ssoInitialValues(view: SsoConfigView | null): SsoFormValues {
  return {
    emisor: view?.emisor ?? '',
    id_cliente: view?.id_cliente ?? '',
    secreto: '',
    dominios: view?.dominios.join(', ') ?? '',
    obligatorio: view?.obligatorio ?? false,
    alta_automatica: view?.alta_automatica ?? false,
    activo: view?.activo ?? true,
  };
}

/** The PUT body: an empty secret is left out (the server keeps the one it has). */
export function ssoBody(values: SsoFormValues): SsoConfigBody {
  const { secreto, ...rest } = values;
  const body: SsoConfigBody = { ...rest, emisor: rest.emisor.trim(), id_cliente: rest.id_cliente.trim() };
  if (secreto !== '') body.secreto = secreto;
  return body;
}

/** The first save needs the secret: without one stored, an empty field is refused before sending. */
export function missingSecret(values: SsoFormValues, stored: boolean): Record<string, string> {
  return !stored && values.secreto === '' ? { secreto: MSG.ssoSecretoRequerido } : {};
}

/** The address to register at the provider before anything is saved: the server's, once it has one. */
export function returnAddress(view: SsoConfigView | null, origin: string): string {
  return view?.url_retorno ?? `${origin}/api/sso/retorno`;
}
