/**
 * Out-of-office delegation (decision 0053): one person's delegation, read, saved and ended through one of two
 * endpoints with the same answer — /api/delegacion (an authorizer, for themselves) and
 * /api/usuarios/{id}/delegacion (an administrator, for anyone). Types come from the shared schemas.
 */
import type { DelegationBody, DelegationDto, DelegationState } from '@portal/shared/schemas/delegation';
import { api } from '../../../lib/api';

export type { DelegationBody, DelegationDto, DelegationState };

/** Whose delegation a screen shows, and where it is read and written. */
export interface DelegationTarget {
  /** The endpoint: GET, PUT and DELETE. */
  path: string;
  queryKey: readonly unknown[];
  /** The signed-in user's own delegation ("Delegas en…") or someone else's ("Delega en…"). */
  self: boolean;
}

export const delegationKeys = {
  /** The signed-in user's own state (the profile menu and the authorizers' order list share it). */
  own: ['delegacion'] as const,
};

export const ownDelegation: DelegationTarget = {
  path: '/api/delegacion',
  queryKey: delegationKeys.own,
  self: true,
};

export function fetchDelegation(target: DelegationTarget, signal?: AbortSignal): Promise<DelegationState> {
  return api.get<DelegationState>(target.path, { signal });
}

export function saveDelegation(target: DelegationTarget, body: DelegationBody): Promise<DelegationState> {
  return api.put<DelegationState>(target.path, body);
}

export function endDelegation(target: DelegationTarget): Promise<DelegationState> {
  return api.delete<DelegationState>(target.path);
}

/**
 * User `id`'s delegation as an administrator sees it (the user drawer), cached under `queryKey`: the
 * administrator area's key of that user, so refreshing the user refreshes it too.
 */
export function userDelegation(id: number, queryKey: readonly unknown[]): DelegationTarget {
  return { path: `/api/usuarios/${id}/delegacion`, queryKey, self: false };
}
