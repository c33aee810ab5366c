import { Alert } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';

/** The buyer's note for the approvers, at the top of an order (plain text, its line breaks kept). */
export function OrderNote({ nota }: { nota: string | null | undefined }) {
  if (!nota) return null;
  return (
    <Alert
      color="indigo"
      variant="light"
      icon={<IconMessage size={18} />}
      title="Nota del comprador"
      data-testid="nota-pedido"
      styles={{ message: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } }}
    >
      {nota}
    </Alert>
  );
}
