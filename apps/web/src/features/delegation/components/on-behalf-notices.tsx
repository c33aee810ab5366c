/**
 * Whom the signed-in authorizer acts for today (an out-of-office delegation, decision 0053): a banner each,
 * above their order list. Reads the own delegation under the key the profile menu's panel shares.
 */
import { Alert, Stack } from '@mantine/core';
import { onBehalfSentence } from '@portal/shared/domain/delegation';
import { IconUserShare } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { delegationKeys, fetchDelegation, ownDelegation } from '../api/delegation';

export function OnBehalfNotices() {
  const delegation = useQuery({
    queryKey: delegationKeys.own,
    queryFn: ({ signal }) => fetchDelegation(ownDelegation, signal),
  });
  const onBehalfOf = delegation.data?.en_nombre_de ?? [];
  if (onBehalfOf.length === 0) return null;
  return (
    <Stack gap="xs" mb="md">
      {onBehalfOf.map((p) => (
        <Alert
          key={p.id}
          color="blue"
          variant="light"
          radius="md"
          icon={<IconUserShare size={18} />}
          data-testid="en-nombre-de"
        >
          {onBehalfSentence(p.nombre, p.hasta)}
        </Alert>
      ))}
    </Stack>
  );
}
