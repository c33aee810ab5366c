/**
 * Asks before leaving a screen with unsaved changes. The router runs in declarative mode (decision 0029),
 * which has no navigation blocker, so this covers the three ways out itself (decision 0048):
 * - links inside the app: a click on a same-origin link is held and confirmed first;
 * - the browser's back button: while there are changes, the screen adds one history entry of its own;
 *   going back lands on it, and the question decides whether to really go back;
 * - reload, closing the tab, another site: the browser's own `beforeunload` question.
 * Navigations the screen starts itself (buttons, keys) go through `confirmLeave`.
 */
import { Text } from '@mantine/core';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { openConfirm } from './alerts';

export interface LeaveGuard {
  /** Runs `leave` at once without changes, or after the person confirms. */
  confirmLeave: (leave: () => void) => void;
  /** Navigates inside the app, asking first when there are changes. */
  navigateGuarded: (to: string) => void;
}

export function useLeaveGuard(
  dirty: boolean,
  message = 'Los cambios de esta pantalla no se han guardado. Si sales ahora, se perderán.',
): LeaveGuard {
  const navigate = useNavigate();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const asking = useRef(false);

  const ask = useCallback(
    (leave: () => void, stay?: () => void) => {
      if (!dirtyRef.current) {
        leave();
        return;
      }
      if (asking.current) return;
      asking.current = true;
      let decided = false;
      openConfirm({
        title: 'Cambios sin guardar',
        children: <Text size="sm">{message}</Text>,
        labels: { confirm: 'Salir sin guardar', cancel: 'Seguir editando' },
        confirmProps: { color: 'red' },
        onConfirm: () => {
          decided = true;
          asking.current = false;
          dirtyRef.current = false;
          leave();
        },
        onClose: () => {
          asking.current = false;
          if (!decided) stay?.();
        },
      });
    },
    [message],
  );

  // Reload, closing the tab, typing another address.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  // Links inside the app (the router's <Link>s and plain anchors), held before the router sees the click.
  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
      if (anchor.target && anchor.target !== '_self') return;
      const url = new URL(anchor.href, window.location.href);
      // Another site: the browser's beforeunload question covers it.
      if (url.origin !== window.location.origin) return;
      const to = url.pathname + url.search + url.hash;
      if (to === window.location.pathname + window.location.search + window.location.hash) return;
      event.preventDefault();
      event.stopPropagation();
      // The page's extra history entry (below) is on top: the next page takes its place.
      ask(() => void navigate(to, { replace: true }));
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirty, ask, navigate]);

  // The back button: an entry of this same page on top, so going back stays here and asks.
  useEffect(() => {
    if (!dirty) return;
    const href = window.location.href;
    window.history.pushState(window.history.state, '', href);
    let onTop = true;
    let leaving = false;
    const onPop = () => {
      if (leaving) return;
      onTop = false;
      ask(
        () => {
          leaving = true;
          window.history.back();
        },
        () => {
          window.history.pushState(window.history.state, '', href);
          onTop = true;
        },
      );
    };
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener('popstate', onPop);
      // Changes saved or discarded on this same page: take the extra entry away again.
      if (onTop && !leaving && window.location.href === href) window.history.back();
    };
  }, [dirty, ask]);

  const navigateGuarded = useCallback(
    (to: string) => {
      // With changes, the page's extra history entry is on top: the next page takes its place.
      const replace = dirtyRef.current;
      ask(() => void navigate(to, { replace }));
    },
    [ask, navigate],
  );
  return { confirmLeave: ask, navigateGuarded };
}
