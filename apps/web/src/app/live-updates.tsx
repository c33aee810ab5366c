/**
 * The live updates (decision 0116), put together here because they reach several features: the stream's
 * events (lib/live-events.ts) mark stale the queries of the screens that show what changed, and the ones on
 * screen ask again. `pedido`: the approvers' lists and that order's review, the buyer's history and that
 * order; `aviso`: the bell; `recarga`: all of them. Events that come together (a busy client's orders) are
 * handled together, at most every half second: a list asks again once, not once per order. A push the
 * service worker receives while the tab is open refreshes the bell the same way.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notificationKeys } from '../features/notifications/api/notifications';
import { authorizerKeys } from '../features/order-review/api/orders';
import { historyKeys } from '../features/shopping/api/history';
import { type LiveHandlers, openLiveEvents } from '../lib/live-events';
import { onPushArrived, registerServiceWorker, renewPushSubscription } from '../lib/service-worker';

/** How long after the signed-in app mounts the live stream opens and the service worker registers. */
const START_AFTER_MS = 4_000;
/** How long events are gathered before the screens ask again. */
const GATHER_MS = 500;

export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refresh = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
    const orders = new Set<number>();
    let bell = false;
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
      }
      if (bell) refresh(notificationKeys.list);
      bell = false;
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
      recarga: () => {
        refresh(authorizerKeys.all);
        refresh(historyKeys.all);
        refresh(notificationKeys.list);
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
  }, [queryClient]);
  return null;
}
