/** Integration tokens and webhooks (rol 4): lists, creation (the value or secret answered once), changes. */
import type {
  DeliveriesResponse,
  TokenCreateBody,
  TokenCreateResponse,
  TokensResponse,
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhooksResponse,
} from '@portal/shared/schemas/integration';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

export function useTokens(page: number) {
  return useQuery({
    queryKey: adminKeys.tokens(page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.get<TokensResponse>(`/api/integracion/tokens?page=${page}`, { signal }),
  });
}

export function useWebhooks(page: number) {
  return useQuery({
    queryKey: adminKeys.webhooks(page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.get<WebhooksResponse>(`/api/integracion/webhooks?page=${page}`, { signal }),
  });
}

export function useDeliveries(id: number | null, page: number) {
  return useQuery({
    queryKey: adminKeys.deliveries(id ?? 0, page),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    // A delivery being retried changes on its own: the log refreshes while open.
    refetchInterval: 5_000,
    queryFn: ({ signal }) =>
      api.get<DeliveriesResponse>(`/api/integracion/webhooks/${id}/entregas?page=${page}`, { signal }),
  });
}

/** Every change refreshes the whole integration area (lists and logs). */
function useIntegrationMutation<TBody, TResult>(fn: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.integration }),
  });
}

export const useCreateToken = () =>
  useIntegrationMutation((body: z.input<typeof TokenCreateBody>) =>
    api.post<TokenCreateResponse>('/api/integracion/tokens', body),
  );
export const useRevokeToken = () =>
  useIntegrationMutation((id: number) => api.post(`/api/integracion/tokens/${id}/revocar`));
export const useCreateWebhook = () =>
  useIntegrationMutation((body: z.input<typeof WebhookCreateBody>) =>
    api.post<WebhookCreateResponse>('/api/integracion/webhooks', body),
  );
export const useDeactivateWebhook = () =>
  useIntegrationMutation((id: number) => api.post(`/api/integracion/webhooks/${id}/desactivar`));
export const useResendDelivery = () =>
  useIntegrationMutation((id: number) => api.post(`/api/integracion/entregas/${id}/reenviar`));
