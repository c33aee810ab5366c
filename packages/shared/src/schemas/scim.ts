import { z } from 'zod';

/** The SCIM token shown once, when it is generated (decision 0121). */
export const ScimTokenCreated = z.object({
  token: z.string(),
  prefijo: z.string(),
  creado: z.string(),
  /** The SCIM base URL the identity provider is given (PUBLIC_URL + /scim/v2). */
  url: z.string(),
});
export type ScimTokenCreated = z.infer<typeof ScimTokenCreated>;

/** A client's SCIM provisioning: its base URL and its live token (null: none). */
export const ScimTokenView = z.object({
  url: z.string(),
  token: z
    .object({
      prefijo: z.string(),
      creado: z.string(),
      ultimo_uso: z.string().nullable(),
    })
    .nullable(),
});
export type ScimTokenView = z.infer<typeof ScimTokenView>;
