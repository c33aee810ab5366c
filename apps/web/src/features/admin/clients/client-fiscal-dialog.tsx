/**
 * «Datos fiscales» of a client administrator's own client (rol 5 with `fiscales`, decision 0128): the client
 * form's section (fiscal-section.tsx) in a dialog, saved with PUT /api/clientes/{id}/datos-fiscales. Opened
 * from «Mi empresa».
 */
import { Modal, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { ClientFiscalBody } from '@portal/shared/schemas/fiscal';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { dialogRefusal } from '../../../lib/form-errors';
import { useSaveFiscal } from './api';
import { type ClientFormValues, fiscalBody, fiscalFormErrors, initialValues } from './client-form-values';
import { FISCAL_SECTION_DESCRIPTION, FiscalFields } from './fiscal-section';

interface ClientFiscalDialogProps {
  client: ClientDto;
  onClose: () => void;
}

/** Mounted while open: a fresh form from the client's saved data each time. */
export function ClientFiscalDialog({ client, onClose }: ClientFiscalDialogProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const save = useSaveFiscal(client.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<ClientFormValues>({
    mode: 'controlled',
    initialValues: initialValues(client),
    validate: (values) => ({
      ...fiscalFormErrors(values),
      ...schemaResolver(ClientFiscalBody, { sync: true })(fiscalBody(values)),
    }),
    onValuesChange: () => setRefusal(null),
  });
  const close = () => {
    if (!save.isPending) onClose();
  };

  const submit = form.onSubmit((values) => {
    setRefusal(null);
    save.mutate(ClientFiscalBody.parse(fiscalBody(values)), {
      onSuccess: (res) => {
        showSuccess(res.msg);
        onClose();
      },
      onError: (error) => setRefusal(dialogRefusal(form, error)),
    });
  });

  return (
    <Modal
      opened
      onClose={close}
      title="Datos fiscales"
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form onSubmit={submit} noValidate aria-label={`Datos fiscales de ${client.nombre}`}>
        <Stack gap="lg">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {FISCAL_SECTION_DESCRIPTION}
            </Text>
            <FiscalFields form={form} />
          </Stack>
          <DialogActions
            error={refusal}
            busy={save.isPending}
            onCancel={close}
            confirmLabel="Guardar datos fiscales"
            confirmIcon={<IconDeviceFloppy size={18} aria-hidden />}
          />
        </Stack>
      </form>
    </Modal>
  );
}
