/** Inventory calls: products (multipart with the image), the inline price and activo edits, bulk activation, categories. */
import { INVENTORY_PER_PAGE } from '@portal/shared/limits';
import {
  type ActivateBatchResponse,
  type AdminCategoryDto,
  type AdminProductDto,
  type CategoriesResponse,
  type CategoryBody,
  type InventoryResponse,
  type PricePreviewResponse,
  ProductForm,
  type ScheduledPriceResponse,
} from '@portal/shared/schemas/inventory';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { toFormData } from '../../../lib/form-data';
import { adminKeys, type ProductListParams } from '../api/keys';

export function useProducts(idCliente: number | null, params: ProductListParams) {
  return useQuery({
    queryKey: adminKeys.products(idCliente ?? 0, params),
    enabled: idCliente !== null,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        id_cliente: String(idCliente),
        page: String(params.page),
        per_page: String(INVENTORY_PER_PAGE),
      });
      if (params.q.trim()) search.set('q', params.q.trim());
      if (params.categoria) search.set('categoria', String(params.categoria));
      if (params.activo !== 'todos') search.set('activo', params.activo === 'activos' ? '1' : '0');
      if (params.orden) search.set('orden', params.orden);
      return api.get<InventoryResponse>(`/api/productos?${search}`, { signal });
    },
  });
}

/**
 * GET /api/categorias of a client: the inventory screen and the user form's category budgets (asked only
 * in category mode, always fresh there since another screen may have just added one).
 */
export function useClientCategories(idCliente: number | null, enabled = true) {
  return useQuery({
    queryKey: adminKeys.categories(idCliente ?? 0),
    enabled: enabled && idCliente !== null,
    staleTime: 0,
    queryFn: ({ signal }) =>
      api
        .get<CategoriesResponse>(`/api/categorias?id_cliente=${idCliente}`, { signal })
        .then((r) => r.categorias),
  });
}

/** POST /api/productos (id 0) or /api/productos/actualizar/{id}, multipart with the image. */
export function saveProduct(
  p: ProductForm,
  image: { file: File | null; remove: boolean },
): Promise<{ msg: string; articulo: AdminProductDto }> {
  const form = toFormData(p, Object.keys(ProductForm.shape) as (keyof ProductForm)[]);
  // A cleared stock or lead time is sent blank (unknown / none); a field left out would keep its value.
  for (const name of ['existencia', 'dias_entrega'] as const) if (p[name] === null) form.set(name, '');
  if (image.file) form.set('imagen', image.file, image.file.name);
  else if (image.remove && p.id) form.set('eliminar_imagen', '1');
  return p.id ? api.post(`/api/productos/actualizar/${p.id}`, form) : api.post('/api/productos', form);
}

/**
 * An inline edit of the list (the activo switch, the price): the update route with the product's required
 * fields as they are and the one that changes; the optional fields left out keep their values.
 */
export function updateProductInline(
  p: AdminProductDto,
  change: { activo: boolean } | { precio: number },
): Promise<{ msg: string; articulo: AdminProductDto }> {
  return api.post(`/api/productos/actualizar/${p.id}`, {
    id: p.id,
    id_cliente: p.id_cliente,
    id_categoria: p.id_categoria,
    clave_interna: p.clave_interna,
    nombre: p.nombre,
    precio: 'precio' in change ? change.precio : p.precio,
    activo: ('activo' in change ? change.activo : p.activo) ? 1 : 0,
  });
}

/** POST /api/productos/activar_lote: the selected products (one client's) active or inactive at once. */
export function activateProducts(ids: number[], activo: boolean): Promise<ActivateBatchResponse> {
  return api.post('/api/productos/activar_lote', { ids, activo: activo ? 1 : 0 });
}

/** POST /api/categorias {nombre, icono, id_cliente}, or /api/categorias/update/{id} when `id` is not 0. */
export function saveCategory(
  c: CategoryBody & { id: number },
): Promise<{ msg: string; categoria: AdminCategoryDto }> {
  const body = { nombre: c.nombre, icono: c.icono, id_cliente: c.id_cliente };
  return c.id ? api.post(`/api/categorias/update/${c.id}`, body) : api.post('/api/categorias', body);
}

/** POST /api/productos/{id}/precio_programado: the product's price from a later business date (decision 0132). */
export function schedulePrice(
  p: AdminProductDto,
  change: { precio: number; vigente_desde: string },
): Promise<ScheduledPriceResponse> {
  return api.post(`/api/productos/${p.id}/precio_programado`, { id_cliente: p.id_cliente, ...change });
}

/** DELETE /api/productos/{id}/precio_programado: cancels the product's pending change. */
export function cancelScheduledPrice(p: AdminProductDto): Promise<ScheduledPriceResponse> {
  return api.delete(`/api/productos/${p.id}/precio_programado?id_cliente=${p.id_cliente}`);
}

/** POST /api/productos/precios/vista_previa: the carts, lists, orders and buyers' carts a change touches. */
export function previewPrices(
  idCliente: number,
  cambios: { id: number; precio: number }[],
): Promise<PricePreviewResponse> {
  return api.post('/api/productos/precios/vista_previa', { id_cliente: idCliente, cambios });
}
