/**
 * 'Agregar cliente' / 'Editar cliente': name, budget, purchase limit, authorizers,
 * budget mode, whether users see their budget, mandatory two-factor sign-in for its authorizers, the
 * logo, the two colours (with a live preview of the sidebar the client's users will see), the
 * calendar and manual PDFs, what the client's own administrators may change, and its fiscal data (decision
 * 0128, fiscal-section.tsx). Its other sections are in client-form-sections.tsx.
 */
import { Divider, Modal, SimpleGrid, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import { type ClientDto, ClientForm } from '@portal/shared/schemas/clients';
import { useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { type FormError, FormFooter } from '../../../components/ui/form-footer';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary, missingFirst } from '../../../lib/form-errors';
import { useSaveClient } from './api';
import {
  ApprovalRulesSection,
  BrandSection,
  BudgetAlertsSection,
  ClientAdminsSection,
  CreditSection,
  DocumentsSection,
  GeneralSection,
  SecuritySection,
  StockSection,
} from './client-form-sections';
import { type ClientFormValues, fiscalFormErrors, initialValues, toBody } from './client-form-values';
import { FiscalSection } from './fiscal-section';

interface ClientFormModalProps {
  opened: boolean;
  /** null: 'Agregar cliente'. */
  client: ClientDto | null;
  onClose: () => void;
}

/** The required fields' labels, for the summary that names what is missing (decision 0098). */
const REQUIRED_LABELS = {
  nombre: 'Nombre',
  presupuesto_default: 'Presupuesto mensual',
  limite_de_compras: 'Límite de compras',
};

export function ClientFormModal({ opened, client, onClose }: ClientFormModalProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const save = useSaveClient();
  const [formError, setFormError] = useState<FormError | null>(null);
  const form = useForm<ClientFormValues>({
    mode: 'controlled',
    initialValues: initialValues(client),
    // The fiscal fields' rules between them (decision 0128) first: a field's own refusal replaces its.
    validate: (values) =>
      missingFirst(
        {
          ...fiscalFormErrors(values),
          ...schemaResolver(ClientForm, { sync: true })(toBody(values, client)),
        },
        MSG.clienteCamposRequeridos,
      ),
    // The message under the form goes as soon as the administrator corrects something.
    onValuesChange: () => setFormError(null),
  });

  // A fresh form each time the modal opens (for this client, or empty).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when opening or switching client
  useEffect(() => {
    if (!opened) return;
    form.setValues(initialValues(client));
    form.resetDirty(initialValues(client));
    form.clearErrors();
    setFormError(null);
    save.reset();
  }, [opened, client?.id]);

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      const body = ClientForm.parse(toBody(values, client));
      save.mutate(
        {
          id: client?.id ?? null,
          input: { ...body, imagen: values.imagen, calendario: values.calendario, manual: values.manual },
        },
        {
          onSuccess: () => {
            showSuccess(client ? MSG.modificadoCorrectamente : MSG.creadoCorrectamente);
            onClose();
          },
          onError: (error) => {
            applyFieldErrors(form, error);
            setFormError({ title: MSG.error, text: errorMessage(error) });
          },
        },
      );
    },
    (errors) => setFormError(formErrorSummary(errors, MSG.clienteCamposRequeridos, REQUIRED_LABELS)),
  );

  const busy = save.isPending;
  const close = () => {
    if (!busy) onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={client ? 'Editar cliente' : 'Agregar cliente'}
      size={1000}
      fullScreen={phone}
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" verticalSpacing="lg">
          <Stack gap="lg">
            <GeneralSection form={form} />
            <Divider />
            <ApprovalRulesSection form={form} />
            <Divider />
            <StockSection form={form} />
            <CreditSection form={form} />
            <SecuritySection form={form} />
            <Divider />
            <DocumentsSection form={form} busy={busy} />
          </Stack>

          <Stack gap="lg">
            <BrandSection form={form} busy={busy} />
            <Divider />
            <FiscalSection form={form} />
            <Divider />
            <BudgetAlertsSection form={form} />
            <Divider />
            <ClientAdminsSection form={form} />
          </Stack>
        </SimpleGrid>

        <FormFooter
          pt="md"
          pb={phone ? 'md' : 0}
          error={formError}
          busy={busy}
          onCancel={close}
          submitLabel={client ? 'Guardar cambios' : 'Crear cliente'}
        />
      </form>
    </Modal>
  );
}
