import type { CatalogOrder, CatalogResponse } from '@portal/shared/schemas/shopping';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface CatalogueParams {
  q: string;
  categoria: number | null;
  page: number;
  perPage: number;
  orden: CatalogOrder;
}

export const catalogueKeys = {
  all: ['catalogo'] as const,
  list: (p: CatalogueParams) =>
    ['catalogo', p.categoria ?? 'todos', p.q, p.orden, p.perPage, p.page] as const,
};

export function fetchCatalogue(p: CatalogueParams, signal?: AbortSignal): Promise<CatalogResponse> {
  const qs = new URLSearchParams({ page: String(p.page), per_page: String(p.perPage) });
  if (p.q) qs.set('q', p.q);
  if (p.categoria) qs.set('categoria', String(p.categoria));
  // Sorted by the server (the default is by name).
  if (p.orden !== 'nombre') qs.set('orden', p.orden);
  return api.get<CatalogResponse>(`/api/catalogo?${qs}`, { signal });
}

/** One page of the assigned products (search, order and paging by the server); the last page stays on screen. */
export function catalogueQuery(p: CatalogueParams) {
  return queryOptions({
    queryKey: catalogueKeys.list(p),
    queryFn: ({ signal }) => fetchCatalogue(p, signal),
    placeholderData: keepPreviousData,
  });
}
