/**
 * Mounts the modal manager and the notifications (overlays.tsx) the first time something needs them, and
 * keeps them mounted from then on. `modals.*` only reaches a mounted ModalsProvider, so whoever opens one
 * goes through `ensureOverlays()`; the signed-in layout asks for them as it mounts.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';

const load = () => import('./overlays');
const Overlays = lazy(load);

/** The imperative APIs of the mounted overlays. */
export type OverlayApi = Pick<Awaited<ReturnType<typeof load>>, 'modals' | 'notifications'>;

let requested = false;
const listeners = new Set<() => void>();
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Resolves, with their APIs, once the modal manager and the notification stack are mounted. */
export async function ensureOverlays(): Promise<OverlayApi> {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  const [api] = await Promise.all([load(), mounted]);
  return api;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function OverlayHost() {
  const show = useSyncExternalStore(subscribe, () => requested);
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Overlays onMounted={markMounted} />
    </Suspense>
  );
}
