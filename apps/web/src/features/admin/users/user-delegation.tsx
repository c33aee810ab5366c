/**
 * The user drawer's "Fuera de oficina" (decision 0053): an authorizer's delegation, seen and set or ended by
 * the administrator through /api/usuarios/{id}/delegacion with the profile menu's own panel (another
 * feature's, given by app/). Saved apart from the user form.
 */
import { Center } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { FormSection } from '../../../components/ui/form-section';
import { Spinner } from '../../../components/ui/spinner';

/** The delegation panel of one user (loaded when an authorizer's drawer opens: it brings the calendar). */
export type DelegationPanelSlot = (userId: number) => ReactNode;

export function UserDelegation({ userId, panel }: { userId: number; panel: DelegationPanelSlot }) {
  return (
    <FormSection
      title="Fuera de oficina"
      description="Se guarda aparte de los datos del usuario, con «Guardar delegación»."
    >
      <Suspense
        fallback={
          <Center py="md">
            <Spinner size="sm" label="Cargando delegación" />
          </Center>
        }
      >
        {panel(userId)}
      </Suspense>
    </FormSection>
  );
}
