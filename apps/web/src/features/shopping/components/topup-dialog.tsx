/**
 * «Solicitar ampliación» (decision 0123): the buyer asks for more of this month's budget — its área's after
 * an AREA_BUDGET refusal, its own otherwise (one category's in category mode, which it picks when the
 * refusal did not name it) — with the amount and the reason; POST /api/ampliaciones. The server's answer is
 * the message: a success notice, or its refusal above the buttons (one pending request per budget: 409).
 */
import {
  Button,
  type ButtonProps,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import { TopupBody } from '@portal/shared/schemas/areas';
import { IconArrowBigUpLines, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage, isApiError } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatMXN } from '../../../lib/format';
import { useShopper } from '../api/shopper';
import { useRequestTopup } from '../api/topups';
import { remainingFor, type TopupTarget, topupCategories } from '../lib/topups';

interface TopupValues {
  id_categoria: string | null;
  importe: number | string;
  motivo: string;
}

function TopupForm({ target, onClose }: { target: TopupTarget; onClose: () => void }) {
  const shopper = useShopper();
  const request = useRequestTopup();
  const [refusal, setRefusal] = useState<string | null>(null);
  const categories = target.destino === 'usuario' ? topupCategories(shopper) : [];
  const byCategory = categories.length > 0;
  const form = useForm<TopupValues>({
    mode: 'controlled',
    initialValues: {
      id_categoria:
        target.idCategoria !== null && categories.some((c) => c.value === String(target.idCategoria))
          ? String(target.idCategoria)
          : categories.length === 1
            ? categories[0]!.value
            : null,
      importe: '',
      motivo: '',
    },
    validate: (values) => {
      const errors = schemaResolver(TopupBody, { sync: true })(bodyOf(values));
      if (byCategory && !values.id_categoria) errors.id_categoria = MSG.ampliacionCategoriaRequerida;
      return errors;
    },
    onValuesChange: () => setRefusal(null),
  });
  const bodyOf = (values: TopupValues) => ({
    destino: target.destino,
    importe: values.importe,
    motivo: values.motivo,
    ...(byCategory && values.id_categoria ? { id_categoria: values.id_categoria } : {}),
  });
  const chosen: TopupTarget = {
    destino: target.destino,
    idCategoria: form.values.id_categoria ? Number(form.values.id_categoria) : null,
  };
  const left = remainingFor(shopper, chosen);

  const submit = form.onSubmit((values) => {
    setRefusal(null);
    request.mutate(TopupBody.parse(bodyOf(values)), {
      onSuccess: (res) => {
        showSuccess(
          res.msg,
          'Verás la respuesta en «Tus solicitudes de ampliación», en Todos los productos.',
        );
        onClose();
      },
      onError: (error) => {
        const rest = applyFieldErrors(form, error);
        // A 400 whose every message sits under its field needs nothing above the buttons.
        const onFields =
          isApiError(error) && error.status === 400 && error.errors && !Object.keys(rest).length;
        if (!onFields) setRefusal(errorMessage(error));
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {target.destino === 'area'
            ? 'Pide más presupuesto de este mes para tu área. Lo revisa el responsable del área u otra persona autorizada de tu empresa.'
            : 'Pide más presupuesto para ti este mes. Lo revisa un autorizador de tu empresa.'}
        </Text>
        {byCategory ? (
          <Select
            label="Categoría"
            placeholder="Elige la categoría"
            withAsterisk
            data={categories}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('id_categoria')}
          />
        ) : null}
        {left ? (
          <Paper bg="gray.0" radius="md" p="sm" data-testid="ampliacion-disponible">
            <Text size="sm">
              {left.nombre}: quedan{' '}
              <Text span fw={700} c={left.restante < 0 ? 'red.8' : undefined}>
                {formatMXN(left.restante)}
              </Text>
            </Text>
          </Paper>
        ) : null}
        <NumberInput
          label="Importe"
          description="Cuánto más necesitas este mes, en MXN"
          withAsterisk
          min={0.01}
          decimalScale={2}
          prefix="$"
          thousandSeparator=","
          allowNegative={false}
          inputMode="decimal"
          data-autofocus
          {...form.getInputProps('importe')}
        />
        <Textarea
          label="Motivo"
          description="Para qué lo necesitas; quien decide lo leerá"
          withAsterisk
          maxLength={500}
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('motivo')}
        />
        <DialogActions
          error={refusal}
          busy={request.isPending}
          onCancel={onClose}
          confirmLabel="Enviar solicitud"
          confirmIcon={<IconSend size={16} aria-hidden />}
        />
      </Stack>
    </form>
  );
}

interface TopupDialogProps {
  /** What the request is for; null closes the dialog. */
  target: TopupTarget | null;
  onClose: () => void;
}

export function TopupDialog({ target, onClose }: TopupDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  // The last target stays rendered while the dialog fades out; each opening starts a new form.
  const [shown, setShown] = useState<{ target: TopupTarget; seq: number } | null>(null);
  if (target && target !== shown?.target) setShown({ target, seq: (shown?.seq ?? 0) + 1 });
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title="Solicitar ampliación"
      centered
      fullScreen={phone}
      size={480}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {shown ? <TopupForm key={shown.seq} target={shown.target} onClose={onClose} /> : null}
    </Modal>
  );
}

/** 'Solicitar ampliación': under a budget refusal, or on a budget card that runs low. */
export function RequestTopupButton({ onClick, ...props }: ButtonProps & { onClick: () => void }) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconArrowBigUpLines size={14} aria-hidden />}
      onClick={onClick}
      {...props}
    >
      Solicitar ampliación
    </Button>
  );
}
