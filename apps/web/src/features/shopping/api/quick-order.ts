import type { QuickOrderBody, QuickOrderResponse } from '@portal/shared/schemas/quick-order';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyCartResponse } from './shopper';

/** POST /api/pedido-rapido: pasted lines of clave and quantity into the cart; the answer's cart into the session. */
export function useQuickOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuickOrderBody) => api.post<QuickOrderResponse>('/api/pedido-rapido', body),
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}
