/**
 * 'Transferir presupuesto' (decision 0123): this month's budget moved from one área of the client to
 * another, with an optional reason. The giving área can never go below what it already spent: the server
 * refuses with how much it may give, shown above the buttons.
 */
import { Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import { type AreaDto, AreaTransferBody } from '@portal/shared/schemas/areas';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatMXN } from '../../../lib/format';
import { monthLabel } from '../../../lib/month-label';
import { useTransferBudget } from './api';

interface TransferValues {
  de: string | null;
  a: string | null;
  importe: number | string;
  motivo: string;
}

function TransferForm({
  idCliente,
  areas,
  onClose,
}: {
  idCliente: number;
  areas: AreaDto[];
  onClose: () => void;
}) {
  const transfer = useTransferBudget(idCliente);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<TransferValues>({
    mode: 'controlled',
    initialValues: { de: null, a: null, importe: '', motivo: '' },
    validate: (values) => {
      const errors = schemaResolver(AreaTransferBody, { sync: true })(values);
      if (values.de && values.de === values.a) errors.a = MSG.transferenciaMismaArea;
      return errors;
    },
    onValuesChange: () => setRefusal(null),
  });
  const options = areas.map((a) => ({
    value: String(a.id),
    label: `${a.nombre} (${a.codigo}) · quedan ${formatMXN(a.restante, false)}`,
  }));
  const submit = form.onSubmit((values) => {
    setRefusal(null);
    transfer.mutate(AreaTransferBody.parse(values), {
      onSuccess: () => {
        showSuccess(MSG.transferenciaHecha);
        onClose();
      },
      onError: (error) => {
        const rest = applyFieldErrors(form, error);
        const onFields =
          isApiError(error) && error.status === 400 && error.errors && !Object.keys(rest).length;
        if (!onFields) setRefusal(errorMessage(error));
      },
    });
  });
  const mes = areas[0]?.mes;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          Mueve presupuesto {mes ? `de ${monthLabel(mes)} ` : ''}de un área a otra. El presupuesto mensual de
          cada área no cambia: solo el de este mes.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="De"
            placeholder="El área que cede"
            withAsterisk
            data={options}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
            {...form.getInputProps('de')}
          />
          <Select
            label="A"
            placeholder="El área que recibe"
            withAsterisk
            data={options}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('a')}
          />
        </SimpleGrid>
        <NumberInput
          label="Importe"
          withAsterisk
          min={0.01}
          decimalScale={2}
          prefix="$"
          thousandSeparator=","
          allowNegative={false}
          inputMode="decimal"
          {...form.getInputProps('importe')}
        />
        <TextInput label="Motivo" maxLength={255} autoComplete="off" {...form.getInputProps('motivo')} />
        <DialogActions
          error={refusal}
          busy={transfer.isPending}
          onCancel={onClose}
          confirmLabel="Transferir"
          confirmIcon={<IconArrowsExchange size={16} aria-hidden />}
        />
      </Stack>
    </form>
  );
}

interface TransferDialogProps {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  areas: AreaDto[];
}

export function TransferDialog({ opened, onClose, idCliente, areas }: TransferDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Transferir presupuesto"
      centered
      fullScreen={phone}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {opened ? <TransferForm idCliente={idCliente} areas={areas} onClose={onClose} /> : null}
    </Modal>
  );
}
