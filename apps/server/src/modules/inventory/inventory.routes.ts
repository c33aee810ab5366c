import { ICONO_ETIQUETAS, ICONOS } from '@portal/shared/domain/icons';
import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  ActivateBatchBody,
  ActivateBatchResponse,
  CategoriesResponse,
  CategoryBody,
  CategoryCreatedResponse,
  CategoryUpdateBody,
  CategoryUpdatedResponse,
  ClientQuery,
  IconsResponse,
  InventoryQuery,
  InventoryResponse,
  ProductCreatedResponse,
  ProductUpdatedResponse,
} from '@portal/shared/schemas/inventory';
import {
  V1Stock,
  V1StockBody,
  V1StockBulkBody,
  V1StockBulkResponse,
  V1StockParams,
  V1StockQuery,
} from '@portal/shared/schemas/stock';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient } from '../../lib/client-scope.ts';
import { badRequest } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { bearerGuard } from '../integration/api-auth.ts';
import {
  activateBatch,
  adminInventory,
  createCategory,
  createProduct,
  listCategories,
  updateCategory,
  updateProduct,
} from './inventory.service.ts';
import { postStockBulk, putProductStock } from './stock.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/**
 * Rol 4: products, categories and the icon catalogue of each client. Rol 5 (a client's administrator) reads
 * its own client's categories (its budgets and assignments name them; decision 0122), and nothing else here.
 */
export async function inventoryRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const categoryReader = app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente] });
  const tags = ['inventario'];

  r.get(
    '/api/productos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Productos de un cliente (24 por página), con búsqueda, filtros de categoría y estado, y orden (nombre, clave, precio, categoria o activo, _asc o _desc)',
        querystring: InventoryQuery,
        response: { 200: InventoryResponse, ...errors },
      },
    },
    async (request) => adminInventory(app.deps, request.query),
  );

  r.post(
    '/api/productos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Crea un producto (multipart con imagen JPG/PNG opcional de hasta 5 MB)',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 201: ProductCreatedResponse, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createProduct(app.deps, request)),
  );

  r.post(
    '/api/productos/actualizar/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Modifica o activa/desactiva un producto; los campos opcionales ausentes se conservan',
        consumes: ['multipart/form-data', 'application/json'],
        params: IdParam,
        response: { 200: ProductUpdatedResponse, ...errors },
      },
    },
    async (request) => updateProduct(app.deps, request, request.params.id),
  );

  r.post(
    '/api/productos/activar_lote',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Activa o desactiva de 1 a 500 productos de un cliente en una transacción (un producto de otro cliente: 404 y nada cambia)',
        body: ActivateBatchBody,
        response: { 200: ActivateBatchResponse, ...errors },
      },
    },
    async (request) => activateBatch(app.deps, request, request.body),
  );

  r.get(
    '/api/categorias',
    {
      preValidation: categoryReader,
      schema: {
        tags,
        summary: 'Categorías de un cliente con su número de productos',
        querystring: ClientQuery,
        response: { 200: CategoriesResponse, ...errors },
      },
    },
    async (request) => {
      // A client administrator's is its own client when none is named; the distributor names one.
      const idCliente = scopedClient(request.auth!, request.query.id_cliente);
      if (idCliente === undefined)
        throw badRequest('VALIDATION', MSG.invClienteRequerido, { id_cliente: MSG.invClienteRequerido });
      return { categorias: await listCategories(app.deps, idCliente) };
    },
  );

  r.post(
    '/api/categorias',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Crea una categoría (nombre único por cliente, icono del catálogo)',
        body: CategoryBody,
        response: { 201: CategoryCreatedResponse, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createCategory(app.deps, request, request.body)),
  );

  r.post(
    '/api/categorias/update/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Modifica el nombre o el icono de una categoría',
        params: IdParam,
        body: CategoryUpdateBody,
        response: { 200: CategoryUpdatedResponse, ...errors },
      },
    },
    async (request) => updateCategory(app.deps, request, request.params.id, request.body),
  );

  r.get(
    '/api/iconos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Catálogo de iconos de categoría',
        response: { 200: IconsResponse, ...errors },
      },
    },
    async () => ({ iconos: ICONOS.map((nombre) => ({ nombre, etiqueta: ICONO_ETIQUETAS[nombre] })) }),
  );

  // The integration API (decision 0124): stock and lead time by a bearer token with inventario:escribir.
  const stockWriter = bearerGuard(app, 'inventario:escribir');
  const v1 = { tags: ['api v1'], security: [{ bearer: [] }] };
  const v1Errors = errorResponses(400, 401, 403, 404, 422, 429);

  r.put(
    '/api/v1/productos/:clave/existencia',
    {
      onRequest: stockWriter,
      schema: {
        ...v1,
        summary:
          'Existencia y días de entrega de un producto, por su clave interna (permiso inventario:escribir)',
        description:
          'existencia: entero ≥ 0, o null si se desconoce; dias_entrega (opcional): entero de 0 a 3650, o null; si no se envía, se conserva. ' +
          'Un token de todos los clientes indica el cliente con ?id_cliente=. La clave de otro cliente responde 404 como una inexistente. ' +
          'Con Idempotency-Key, un reintento con la misma clave y el mismo cuerpo responde lo mismo sin volver a escribir.',
        params: V1StockParams,
        querystring: V1StockQuery,
        body: V1StockBody,
        response: { 200: V1Stock, ...v1Errors },
      },
    },
    async (request, reply) =>
      putProductStock(
        app.deps,
        request,
        reply,
        request.apiCaller!,
        request.params.clave,
        request.query.id_cliente,
        request.body,
      ),
  );

  r.post(
    '/api/v1/existencias',
    {
      onRequest: stockWriter,
      bodyLimit: 1024 * 1024,
      schema: {
        ...v1,
        summary:
          'Existencias de hasta 5,000 productos de un cliente en una sola operación (permiso inventario:escribir)',
        description:
          'Cada línea: clave (interna), existencia (entero ≥ 0 o null) y dias_entrega opcional. Todo se escribe en una transacción; ' +
          'las claves que no son productos del cliente vuelven en no_encontradas. Un token de todos los clientes indica id_cliente. ' +
          'Con Idempotency-Key, un reintento con la misma clave y el mismo cuerpo responde lo mismo sin volver a escribir.',
        body: V1StockBulkBody,
        response: { 200: V1StockBulkResponse, ...v1Errors },
      },
    },
    async (request, reply) => postStockBulk(app.deps, request, reply, request.apiCaller!, request.body),
  );
}
