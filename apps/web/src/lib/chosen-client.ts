/**
 * The client the administrator is working on follows them across Usuarios, Inventario, Semanas de acceso,
 * Áreas and Ampliaciones (decision 0062): each of those screens keeps it in its URL (`?cliente=3`), and the last valid one
 * is remembered for this browser tab so that the sidebar's links to those screens carry it.
 */
import { useSyncExternalStore } from 'react';

/** The administrator's screens that work on one client, by path. */
export const CLIENT_SCREENS = {
  usuarios: '/administrador/usuarios',
  inventario: '/administrador/inventario',
  semanas: '/administrador/semanas',
  areas: '/administrador/areas',
  ampliaciones: '/administrador/ampliaciones',
  direcciones: '/administrador/direcciones',
} as const;

const KEY = 'portal.admin.cliente';
const listeners = new Set<() => void>();

function read(): number | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
    return id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** Remembers (or, with null, forgets) the chosen client for the sidebar's links. */
export function rememberClient(id: number | null): void {
  if (read() === id) return;
  try {
    if (id) window.sessionStorage.setItem(KEY, String(id));
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the links simply do not carry the client.
  }
  for (const listener of listeners) listener();
}

/** The remembered client; re-renders when it changes. */
export function useRememberedClient(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => null,
  );
}

/** A client screen's path with the client in its query (`/administrador/usuarios?cliente=3`). */
export function withClient(path: string, id: number | null): string {
  return id ? `${path}?cliente=${id}` : path;
}
