/**
 * The live updates (decision 0116), put together here because they reach several features: the stream's
 * events (lib/live-events.ts) mark stale the queries of the screens that show what changed, and the ones on
 * screen ask again. `pedido`: the approvers' lists and that order's review, the buyer's history and that
 * order; `aviso`: the bell (and an approver's «Ampliaciones»: a request reaches its deciders' bells); `presupuesto` (a buyer's top-up decided, a transfer between áreas, decision
 * 0123): the buyer's figures — the budget cards, the área's line, the cart, the sidebar — read again from
 * the cart into the session, and «Tus solicitudes de ampliación»; `recarga`: all of them. Events that come
 * together (a busy client's orders) are handled together, at most every half second: a list asks again
 * once, not once per order. A push the service worker receives while the tab is open refreshes the bell the
 * same way.
 */
import { ROLES } from '@portal/shared/domain/roles';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationKeys } from '../features/notifications/api/notifications';
import { authorizerKeys } from '../features/order-review/api/orders';
import { fetchCart } from '../features/shopping/api/cart';
import { historyKeys } from '../features/shopping/api/history';
import { applyCartResponse } from '../features/shopping/api/shopper';
import { topupKeys as ownTopupKeys } from '../features/shopping/api/topups';
import { topupKeys } from '../features/topups/api/topups';
import { type LiveHandlers, openLiveEvents } from '../lib/live-events';
import { onPushArrived, registerServiceWorker, renewPushSubscription } from '../lib/service-worker';
import { useSession } from '../lib/session';

/** How long after the signed-in app mounts the live stream opens and the service worker registers. */
const START_AFTER_MS = 4_000;
/** How long events are gathered before the screens ask again. */
const GATHER_MS = 500;

export function LiveUpdates() {
  const queryClient = useQueryClient();
  const buyer = useSession().user.rol === ROLES.usuario;
  useEffect(() => {
    const refresh = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
    /** A buyer's figures live in the session: the cart's answer brings them all (a failure keeps them). */
    const refreshBudgets = () => {
      if (!buyer) return;
      refresh(ownTopupKeys.own);
      fetchCart()
        .then((res) => applyCartResponse(queryClient, res))
        .catch(() => undefined);
    };
    const orders = new Set<number>();
    let bell = false;
    let budgets = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (orders.size > 0) {
        refresh(authorizerKeys.lists());
        refresh(historyKeys.pages);
        for (const id of orders) {
          refresh(authorizerKeys.order(id));
          refresh(historyKeys.detail(id));
        }
        orders.clear();
        // A change to one of the buyer's orders can give budget back (a cancellation, a line cancelled as
        // unavailable, an approver's edit, a credit): the budget cards ask again with the order.
        if (buyer) budgets = true;
      }
      if (bell) {
        refresh(notificationKeys.list);
        // A top-up request reaches its deciders' bells (decision 0123): their «Ampliaciones» asks again.
        if (!buyer) refresh(topupKeys.all);
      }
      bell = false;
      if (budgets) refreshBudgets();
      budgets = false;
    };
    const soon = () => {
      timer ??= setTimeout(flush, GATHER_MS);
    };
    const handlers: LiveHandlers = {
      pedido: (id) => {
        orders.add(id);
        soon();
      },
      aviso: () => {
        bell = true;
        soon();
      },
      presupuesto: () => {
        budgets = true;
        soon();
      },
      recarga: () => {
        refresh(authorizerKeys.all);
        refresh(historyKeys.all);
        refresh(notificationKeys.list);
        refreshBudgets();
      },
    };
    // The stream and the service worker start once the screen has loaded and settled: neither competes with
    // the first screen's requests and work (the page budgets, decision 0095), and the bell already has its
    // count from the first page of its list.
    let stop: (() => void) | null = null;
    const start = setTimeout(() => {
      stop = openLiveEvents(handlers);
      registerServiceWorker();
      void renewPushSubscription();
    }, START_AFTER_MS);
    // A push the service worker received (decision 0117) is news for the bell too.
    const stopPush = onPushArrived(() => {
      bell = true;
      soon();
    });
    return () => {
      clearTimeout(start);
      clearTimeout(timer);
      stop?.();
      stopPush();
    };
  }, [queryClient, buyer]);
  return null;
}
