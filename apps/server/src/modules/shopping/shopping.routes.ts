import { ROLES } from '@portal/shared/domain/roles';
import {
  CommentBody,
  CommentsResponse,
  OlderCommentsQuery,
  OlderCommentsResponse,
} from '@portal/shared/schemas/comments';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import { QuickOrderBody, QuickOrderResponse } from '@portal/shared/schemas/quick-order';
import {
  BuyerOrderResponse,
  CartAddBody,
  CartRemoveBody,
  CartResponse,
  CatalogQuery,
  CatalogResponse,
  HistoryQuery,
  HistoryResponse,
  PurchaseBody,
  PurchaseResponse,
  ReorderResponse,
  WithdrawResponse,
} from '@portal/shared/schemas/shopping';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { buyerAddComment, buyerOlderComments } from '../orders/comments.service.ts';
import { sendPurchaseOrder } from '../orders/po-pdf.service.ts';
import { shopperSession, userEmptyCart, userRemoveCartItem, userSetCartItem } from './cart.service.ts';
import { userCatalogue } from './catalogue.service.ts';
import { buyerOrder, userHistory } from './history.service.ts';
import { userSubmitOrder } from './purchase.service.ts';
import { userQuickOrder } from './quick-order.service.ts';
import { userRepeatOrder } from './reorder.service.ts';
import { userWithdrawOrder } from './withdraw.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

/** Everything a rol-1 user does: catalogue, cart, purchase, history (docs/domain.md "Cart", "Purchase"). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route registrar, one route after another (docs/code-style.md)
export async function shoppingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const buyer = app.guard({ roles: [ROLES.usuario] });
  const tags = ['compras'];

  r.get(
    '/api/catalogo',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Productos asignados, con búsqueda y paginación',
        querystring: CatalogQuery,
        response: { 200: compiledResponse(CatalogResponse), ...errors },
      },
    },
    async (request) => userCatalogue(app.deps, request.auth!, request.query),
  );

  r.get(
    '/api/carrito',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'El carrito, sus totales y el presupuesto',
        response: { 200: CartResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: '',
      ...(await shopperSession(app.deps, request.auth!)),
    }),
  );

  r.post(
    '/api/carrito/nuevo_item',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Agrega un producto o cambia su cantidad (0 o menos lo quita)',
        body: CartAddBody,
        response: { 200: compiledResponse(CartResponse), ...errors },
      },
    },
    async (request) => userSetCartItem(app.deps, request.auth!, request.body.item),
  );

  r.post(
    '/api/carrito/eliminar_item',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Quita un producto del carrito',
        body: CartRemoveBody,
        response: { 200: CartResponse, ...errors },
      },
    },
    async (request) => userRemoveCartItem(app.deps, request.auth!, request.body.item_id),
  );

  r.post(
    '/api/carrito/vaciar_carrito',
    {
      preValidation: buyer,
      schema: { tags, summary: 'Vacía el carrito', response: { 200: CartResponse, ...errors } },
    },
    async (request) => userEmptyCart(app.deps, request.auth!),
  );

  r.post(
    '/api/compra',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Envía el carrito como pedido',
        body: PurchaseBody,
        response: { 201: compiledResponse(PurchaseResponse), ...errors },
      },
    },
    async (request, reply) => {
      const { orden, nota, id_direccion } = request.body;
      const result = await userSubmitOrder(app.deps, request, request.auth!, orden, nota, id_direccion);
      return reply.status(201).send(result);
    },
  );

  r.get(
    '/api/historial',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary:
          'Pedidos del usuario, 10 por página, por estado, mes o número; orden fecha_desc (por omisión), fecha_asc, total_desc o total_asc',
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errors },
      },
    },
    async (request) => userHistory(app.deps, request.auth!.user.id, request.query),
  );

  r.get(
    '/api/historial/:id',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Detalle de un pedido propio: a quién espera y desde cuándo',
        params: IdParam,
        response: { 200: BuyerOrderResponse, ...errors },
      },
    },
    async (request) => buyerOrder(app.db, request.params.id, request.auth!.user.id),
  );

  r.get(
    '/api/historial/:id/pdf',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Orden de compra en PDF de un pedido propio aprobado (OC-<número>.pdf)',
        params: IdParam,
        produces: ['application/pdf'],
        response: errors,
      },
    },
    async (request, reply) =>
      sendPurchaseOrder(app.deps, reply, request.params.id, { idUser: request.auth!.user.id }),
  );

  r.post(
    '/api/historial/:id/repetir',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Agrega al carrito las líneas de un pedido propio, a precios actuales',
        params: IdParam,
        response: { 200: ReorderResponse, ...errors },
      },
    },
    async (request) => userRepeatOrder(app.deps, request.auth!, request.params.id),
  );

  r.post(
    '/api/historial/:id/retirar',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Retira un pedido propio pendiente (queda cancelado)',
        params: IdParam,
        response: { 200: WithdrawResponse, ...errors },
      },
    },
    async (request) => userWithdrawOrder(app.deps, request, request.auth!, request.params.id),
  );

  r.get(
    '/api/historial/:id/comentarios',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Los comentarios anteriores a uno (50 por página) de un pedido propio',
        params: IdParam,
        querystring: OlderCommentsQuery,
        response: { 200: OlderCommentsResponse, ...errors },
      },
    },
    async (request) => buyerOlderComments(app.deps, request.auth!, request.params.id, request.query.antes),
  );

  r.post(
    '/api/historial/:id/comentarios',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Agrega un comentario a un pedido propio (cualquier estatus)',
        params: IdParam,
        body: CommentBody,
        response: { 201: CommentsResponse, ...errors, ...errorResponses(429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await buyerAddComment(app.deps, request, request.auth!, request.params.id, request.body.texto)),
  );

  r.post(
    '/api/pedido-rapido',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Pedido rápido: agrega al carrito líneas de clave y cantidad pegadas o escritas',
        body: QuickOrderBody,
        response: { 200: QuickOrderResponse, ...errors },
      },
    },
    async (request) => userQuickOrder(app.deps, request.auth!, request.body.texto),
  );
}
