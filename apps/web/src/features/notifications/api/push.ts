/**
 * "Avisos en este dispositivo" (decision 0117): subscribing this browser to the portal's Web Push with the
 * server's VAPID key, and dropping it. The server keeps one subscription per device and deletes it at
 * sign-out; the worker (src/service-worker) shows what arrives.
 */
import { api } from '../../../lib/api';
import { activeRegistration } from '../../../lib/service-worker';

/** What the browser refused, in words for the person (its own errors are in English and technical). */
export class DeviceRefusal extends Error {}

/** Where this browser stands: what the device section shows. */
export type DeviceState = 'no-disponible' | 'bloqueado' | 'activo' | 'inactivo';

function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

export async function deviceState(): Promise<DeviceState> {
  if (!pushSupported()) return 'no-disponible';
  const registration = await activeRegistration();
  if (!registration) return 'no-disponible';
  if (Notification.permission === 'denied') return 'bloqueado';
  return (await registration.pushManager.getSubscription()) ? 'activo' : 'inactivo';
}

/** The base64url key as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Asks the browser for permission, subscribes it with the server's key and registers it with the server. */
export async function subscribeThisDevice(): Promise<void> {
  const registration = await activeRegistration();
  if (!registration) throw new DeviceRefusal('Este navegador no puede recibir avisos del portal.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new DeviceRefusal('El navegador no dio permiso para mostrar avisos del portal.');
  const { clave } = await api.get<{ clave: string }>('/api/push/clave');
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(clave),
    });
  } catch {
    throw new DeviceRefusal(
      'El navegador no pudo activar los avisos en este dispositivo. Inténtalo de nuevo más tarde.',
    );
  }
  await api.post('/api/push/suscripciones', subscription.toJSON());
}

export async function unsubscribeThisDevice(): Promise<void> {
  const registration = await activeRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await api.delete('/api/push/suscripciones', { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
