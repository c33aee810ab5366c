/**
 * The user drawer's "Fuera de oficina" (decision 0053): an authorizer's delegation, seen and set or ended by
 * the administrator through /api/usuarios/{id}/delegacion with the profile menu's own panel. Saved apart
 * from the user form.
 */
import { Center } from '@mantine/core';
import { lazy, Suspense, useMemo } from 'react';
import { FormSection } from '../../../components/ui/form-section';
import { Spinner } from '../../../components/ui/spinner';
import type { DelegationTarget } from '../../../lib/delegation';
import { adminKeys } from '../api/keys';

// The panel brings the calendar with it: loaded when an authorizer's drawer opens.
const DelegationPanel = lazy(() => import('../../../components/delegation/delegation-panel'));

export function UserDelegation({ userId }: { userId: number }) {
  const target = useMemo<DelegationTarget>(
    () => ({
      path: `/api/usuarios/${userId}/delegacion`,
      queryKey: adminKeys.userDelegation(userId),
      self: false,
    }),
    [userId],
  );
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
        <DelegationPanel target={target} />
      </Suspense>
    </FormSection>
  );
}
