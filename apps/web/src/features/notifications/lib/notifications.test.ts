import type { NotificationDto, NotificationsPage } from '@portal/shared/schemas/notifications';
import { describe, expect, it } from 'vitest';
import {
  bellLabel,
  firstPageOnly,
  markedRead,
  type NotificationPages,
  nextPageParam,
  unreadBadge,
  unreadOf,
} from './notifications';

const item = (id: number, leida = false): NotificationDto => ({
  id,
  tipo: 'por_revisar',
  titulo: `Pedido #${String(id).padStart(5, '0')} por revisar`,
  texto: 'Nora Paz Gil hizo un pedido de $522.00 MXN.',
  ruta: `/autorizador/orden/${id}`,
  creada: '2026-12-02T15:00:00.000Z',
  leida,
});

const page = (ids: number[], noLeidas: number, hayMas = false, read: number[] = []): NotificationsPage => ({
  no_leidas: noLeidas,
  notificaciones: ids.map((id) => item(id, read.includes(id))),
  hay_mas: hayMas,
});

/** Two pages: 9 and 8 unread (7 read), 5 and 4 unread; 4 unread in all. */
const twoPages = (): NotificationPages => ({
  pages: [page([9, 8, 7], 4, true, [7]), page([5, 4], 4)],
  pageParams: [undefined, 7],
});

describe('unreadBadge', () => {
  it('is hidden at 0, the count up to 9, and "9+" above', () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(1)).toBe('1');
    expect(unreadBadge(9)).toBe('9');
    expect(unreadBadge(10)).toBe('9+');
    expect(unreadBadge(250)).toBe('9+');
  });
});

describe('bellLabel', () => {
  it('names the bell with the whole unread count, or alone when there is none', () => {
    expect(bellLabel(0)).toBe('Avisos');
    expect(bellLabel(3)).toBe('Avisos, 3 sin leer');
    // The server counts up to 100.
    expect(bellLabel(99)).toBe('Avisos, 99 sin leer');
    expect(bellLabel(100)).toBe('Avisos, más de 99 sin leer');
    expect(bellLabel(12)).toBe('Avisos, 12 sin leer');
  });
});

describe('nextPageParam', () => {
  it('asks for the items older than the last one shown, only when there are more', () => {
    expect(nextPageParam(page([9, 8, 7], 0, true))).toBe(7);
    expect(nextPageParam(page([9, 8, 7], 0, false))).toBeUndefined();
  });
});

describe('unreadOf', () => {
  it('reads the count of the first page, 0 before any', () => {
    expect(unreadOf(twoPages())).toBe(4);
    expect(unreadOf(undefined)).toBe(0);
  });
});

describe('markedRead', () => {
  it('marks one item read on whichever page it is, one less unread until the server answers', () => {
    const next = markedRead(twoPages(), [5]);
    expect(next.pages[1]!.notificaciones.find((n) => n.id === 5)!.leida).toBe(true);
    expect(next.pages[1]!.notificaciones.find((n) => n.id === 4)!.leida).toBe(false);
    expect(unreadOf(next)).toBe(3);
  });

  it('counts nothing for an item already read', () => {
    expect(unreadOf(markedRead(twoPages(), [7]))).toBe(4);
  });

  it("takes the server's count when it has answered", () => {
    expect(unreadOf(markedRead(twoPages(), [5], 6))).toBe(6);
  });

  it('marks every item read for "Marcar todo como leído"', () => {
    const next = markedRead(twoPages(), null, 0);
    expect(next.pages.flatMap((p) => p.notificaciones).every((n) => n.leida)).toBe(true);
    expect(unreadOf(next)).toBe(0);
    expect(next.pageParams).toEqual([undefined, 7]);
  });

  it('never counts below zero', () => {
    const data: NotificationPages = { pages: [page([3, 2], 1)], pageParams: [undefined] };
    expect(unreadOf(markedRead(data, null))).toBe(0);
  });
});

describe('firstPageOnly', () => {
  it('keeps the first page and its parameter', () => {
    expect(firstPageOnly(twoPages())).toEqual({ pages: [twoPages().pages[0]], pageParams: [undefined] });
  });

  it('leaves a single page as it is', () => {
    const one: NotificationPages = { pages: [page([1], 1)], pageParams: [undefined] };
    expect(firstPageOnly(one)).toBe(one);
  });
});
