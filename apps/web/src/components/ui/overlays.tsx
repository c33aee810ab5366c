/**
 * The modal manager and the notification stack. A chunk of its own: the sign-in screen does not load
 * them until its first alert (src/components/ui/overlay-host.tsx).
 */
import '@mantine/notifications/styles.css';

import { ModalsProvider, modals } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { useEffect } from 'react';

export { modals, notifications };

export default function Overlays({ onMounted }: { onMounted: () => void }) {
  // Runs after the providers' own effects (children first), so their event listeners are in place.
  useEffect(() => onMounted(), [onMounted]);
  return (
    <>
      <ModalsProvider labels={{ confirm: 'Aceptar', cancel: 'Cancelar' }} />
      <Notifications position="top-right" limit={4} />
    </>
  );
}
