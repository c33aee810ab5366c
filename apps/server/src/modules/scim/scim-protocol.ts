import { ROLE_NAMES } from '@portal/shared/domain/roles';

/**
 * SCIM 2.0 wire format (RFC 7643, RFC 7644) for the portal's provisioning endpoints (decision 0121): the
 * schema URNs, the error a refusal answers with, and the discovery documents.
 */
export const SCIM_PREFIX = '/scim/v2';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  spc: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The most resources one list answer holds (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;

/** RFC 7644 §3.12's `scimType` values the portal answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

/** A refusal in SCIM's own error format (RFC 7644 §3.12); `detail` is Spanish. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

export function scimErrorBody(status: number, detail: string, scimType?: string) {
  return {
    schemas: [URN.error],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  };
}

/** The roles SCIM may read and set, as fixed groups: `rol-1`, `rol-2`, `rol-3`. Roles 4+ never appear. */
export const SCIM_ROLES = [1, 2, 3] as const;
export type ScimRole = (typeof SCIM_ROLES)[number];

export const groupId = (rol: ScimRole) => `rol-${rol}`;
export const groupName = (rol: ScimRole) => ROLE_NAMES[rol];

/** The role of a group id (`rol-2`) or display name (`Autorizador`, any case); null: no such group. */
export function roleOfGroup(idOrName: string): ScimRole | null {
  const m = /^rol-([123])$/.exec(idOrName);
  if (m) return Number(m[1]) as ScimRole;
  const found = SCIM_ROLES.find((r) => ROLE_NAMES[r].toLowerCase() === idOrName.trim().toLowerCase());
  return found ?? null;
}

/** A SCIM boolean as identity providers send it: true/false, or Entra ID's "True"/"False" strings. */
export function scimBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true') return true;
    if (v === 'false') return false;
  }
  return null;
}

/** GET /ServiceProviderConfig (RFC 7643 §5). */
export function serviceProviderConfig(base: string) {
  return {
    schemas: [URN.spc],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'El token de aprovisionamiento del cliente: Authorization: Bearer <token>',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

/** GET /ResourceTypes (RFC 7643 §6). */
export function resourceTypes(base: string) {
  return [
    {
      schemas: [URN.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'Usuario del portal (roles 1 a 3 del cliente)',
      schema: URN.user,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [URN.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Rol del portal (grupos fijos: Usuario, Autorizador, Super Autorizador)',
      schema: URN.group,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

const attr = (name: string, type: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** GET /Schemas (RFC 7643 §7): the attributes the portal reads and writes. */
export function schemas(base: string) {
  return [
    {
      schemas: [URN.schema],
      id: URN.user,
      name: 'User',
      description: 'Usuario del portal',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server' }),
        attr('externalId', 'string', { caseExact: true }),
        attr('name', 'complex', {
          subAttributes: [
            attr('formatted', 'string'),
            attr('givenName', 'string'),
            attr('familyName', 'string'),
          ],
        }),
        attr('displayName', 'string', { mutability: 'readOnly' }),
        attr('emails', 'complex', {
          multiValued: true,
          subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
        }),
        attr('active', 'boolean'),
        attr('groups', 'complex', {
          multiValued: true,
          mutability: 'readOnly',
          subAttributes: [attr('value', 'string'), attr('display', 'string')],
        }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${URN.user}` },
    },
    {
      schemas: [URN.schema],
      id: URN.group,
      name: 'Group',
      description: 'Rol del portal (grupos fijos)',
      attributes: [
        attr('displayName', 'string', { required: true, mutability: 'readOnly' }),
        attr('members', 'complex', {
          multiValued: true,
          subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string')],
        }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${URN.group}` },
    },
  ];
}

/** A ListResponse (RFC 7644 §3.4.2). */
export function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [URN.list],
    totalResults: total,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}
