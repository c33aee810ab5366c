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
import { openLiveEvents } from '../lib/live-events';
import { onPushArrived, registerServiceWorker, renewPushSubscription } from '../lib/service-worker';

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
    const stop = openLiveEvents({
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
    });
    registerServiceWorker();
    void renewPushSubscription();
    // A push the service worker received (decision 0117) is news for the bell too.
    const stopPush = onPushArrived(() => {
      bell = true;
      soon();
    });
    return () => {
      clearTimeout(timer);
      stop();
      stopPush();
    };
  }, [queryClient]);
  return null;
}
