/**
 * The page's side of the service worker (src/service-worker, decision 0118): deleting what it keeps at
 * sign-in and at sign-out, so one person's catalogue never answers another's, and hearing of the pushes it
 * receives. Loaded when needed (sign-in, sign-out, the signed-in app), never by the sign-in screen itself.
 */
import { CLEAR_MESSAGE, PUSH_MESSAGE } from '../service-worker/rules';
import { api } from './api';

/** How long sign-in and sign-out wait for the worker to confirm the caches are gone. */
const CLEAR_WAIT_MS = 2_000;

export function serviceWorkerSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/**
 * Registers the worker (in the built app only: in development Vite serves modules the worker must not keep).
 * Called by the signed-in app (app/live-updates.tsx), after the first screen: the sign-in screen loads none
 * of this, and what the worker is for — the catalogue without a network, pushes — starts with a session.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !serviceWorkerSupported()) return;
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);
}

/** The worker's registration, when one is active for this page. */
export async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!serviceWorkerSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return registration?.active ? registration : null;
}

/**
 * Deletes every cache of this origin. The worker does it when it runs (and keeps the shell again, which is
 * the same for everyone); the page does it itself otherwise. Never fails: a browser without caches has
 * nothing to delete.
 */
export async function clearCaches(): Promise<void> {
  try {
    const worker = (await activeRegistration())?.active;
    if (worker) {
      const done = await new Promise<boolean>((resolve) => {
        const channel = new MessageChannel();
        const timer = setTimeout(() => resolve(false), CLEAR_WAIT_MS);
        channel.port1.onmessage = () => {
          clearTimeout(timer);
          resolve(true);
        };
        worker.postMessage(CLEAR_MESSAGE, [channel.port2]);
      });
      if (done) return;
    }
    if (typeof caches === 'undefined') return;
    for (const name of await caches.keys()) await caches.delete(name);
  } catch {
    // Storage blocked (a private window's policy): there is nothing kept to delete.
  }
}

/**
 * This browser's push subscription is dropped at sign-out (the server deletes the session's own at the same
 * time, decision 0117): a shared device stops receiving the previous person's notices.
 */
export async function forgetPushSubscription(): Promise<void> {
  try {
    const registration = await activeRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    await subscription?.unsubscribe();
  } catch {
    // Nothing subscribed, or push not offered by this browser.
  }
}

/** Calls `arrived` whenever the worker receives a push while this tab is open; returns the unsubscribe. */
export function onPushArrived(arrived: () => void): () => void {
  if (!serviceWorkerSupported()) return () => undefined;
  const listener = (event: MessageEvent) => {
    if ((event.data as { tipo?: unknown } | null)?.tipo === PUSH_MESSAGE) arrived();
  };
  navigator.serviceWorker.addEventListener('message', listener);
  return () => navigator.serviceWorker.removeEventListener('message', listener);
}

/**
 * A browser that kept its push subscription from an earlier session (one that expired without a sign-out)
 * registers it again for whoever is signed in now (decision 0117): the server moves a device to the person
 * who posts it, so the previous person's notices stop reaching it, and this person's keep reaching it
 * without choosing the device again at every sign-in.
 */
export async function renewPushSubscription(): Promise<void> {
  try {
    const subscription = await (await activeRegistration())?.pushManager?.getSubscription();
    if (subscription) await api.post('/api/push/suscripciones', subscription.toJSON());
  } catch {
    // Not subscribed here, or the server refused it (a device it no longer accepts): nothing to renew.
  }
}
