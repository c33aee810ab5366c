import { Button, type ButtonProps, Stack } from '@mantine/core';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useRepeatOrder } from '../api/order-actions';
import { AddResultDialog } from './add-result-dialog';

/** 'Repetir pedido': the order's lines into the cart at current prices, then what was added and skipped. */
export function RepeatOrderButton({ id, ...props }: { id: number } & Pick<ButtonProps, 'size' | 'variant'>) {
  const repeat = useRepeatOrder();
  const [result, setResult] = useState<{ res: ReorderResponse; opened: boolean } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <Stack gap={6} align="flex-start">
      <Button
        leftSection={<IconRepeat size={14} />}
        loading={repeat.isPending}
        aria-label={`Repetir pedido ${formatOrderNumber(id)}`}
        onClick={() =>
          repeat.mutate(id, {
            onSuccess: (res) => {
              setRefusal(null);
              setResult({ res, opened: true });
            },
            onError: (error) => setRefusal(errorMessage(error)),
          })
        }
        {...props}
      >
        Repetir pedido
      </Button>
      <Refusal error={refusal} onClose={() => setRefusal(null)} py={6} />
      <AddResultDialog
        title={`Repetir pedido ${formatOrderNumber(id)}`}
        result={result?.res ?? null}
        opened={result?.opened ?? false}
        onClose={() => setResult((r) => (r ? { ...r, opened: false } : r))}
      />
    </Stack>
  );
}
