/**
 * «Reglas de aprobación», a client administrator's screen (rol 5, decision 0122): the rules part of the
 * client form (client-form-sections.tsx) — the approval levels, the rules by amount, the reminder, the
 * window that adds a buyer's orders up and the escalation — of its own client, saved with
 * PUT /api/cliente/reglas when its client allows `reglas`. Without it the rules are shown, not changed.
 * The rest of the client form (branding, budgets, files, permissions) stays the distributor's.
 */
import { Alert, Paper, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { MSG } from '@portal/shared/messages';
import { type ClientDto, ClientRulesBody } from '@portal/shared/schemas/clients';
import { IconDeviceFloppy, IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import type { FormError } from '../../../components/ui/form-footer';
import { PageHeader } from '../../../components/ui/page';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors, formErrorSummary } from '../../../lib/form-errors';
import { mayChangeRules } from '../scope';
import { useAdminScope } from '../scope-context';
import { useSaveOwnRules } from './api';
import { ApprovalRulesSection } from './client-form-sections';
import { type ClientFormValues, initialValues, rulesBody } from './client-form-values';

export function ClientRulesPage() {
  const scope = useAdminScope();
  const editable = mayChangeRules(scope);
  return (
    <Stack gap="lg">
      <PageHeader
        title="Reglas de aprobación"
        description={
          editable
            ? 'Cómo se aprueban los pedidos de tu empresa: los niveles de autorización y las reglas por monto.'
            : 'Cómo se aprueban los pedidos de tu empresa. Tu distribuidor no te permite cambiarlas: solo puedes consultarlas.'
        }
      />
      {/* The distributor changes them in the client form: this screen is a client administrator's. */}
      {scope.client ? <RulesForm key={scope.client.id} client={scope.client} editable={editable} /> : null}
    </Stack>
  );
}

function RulesForm({ client, editable }: { client: ClientDto; editable: boolean }) {
  const save = useSaveOwnRules();
  const [formError, setFormError] = useState<FormError | null>(null);
  const form = useForm<ClientFormValues>({
    mode: 'controlled',
    initialValues: initialValues(client),
    validate: (values) => schemaResolver(ClientRulesBody, { sync: true })(rulesBody(values)),
    // The message under the form goes as soon as something is corrected.
    onValuesChange: () => setFormError(null),
  });

  const submit = form.onSubmit(
    (values) => {
      setFormError(null);
      save.mutate(ClientRulesBody.parse(rulesBody(values)), {
        onSuccess: (res) => {
          // What the server saved (a rule the levels cannot have is off) is the form's new starting point.
          const saved = initialValues(res.cliente);
          form.setInitialValues(saved);
          form.setValues(saved);
          form.resetDirty(saved);
          showSuccess(res.msg);
        },
        onError: (error) => {
          applyFieldErrors(form, error);
          setFormError({ title: MSG.error, text: errorMessage(error) });
        },
      });
    },
    (errors) => setFormError(formErrorSummary(errors, MSG.datosInvalidos)),
  );

  return (
    <Paper withBorder radius="lg" shadow="xs" p={{ base: 'sm', sm: 'lg' }} maw={760} mt={-8}>
      <form onSubmit={submit} noValidate aria-label="Reglas de aprobación de tu empresa">
        <fieldset
          disabled={!editable || save.isPending}
          style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
        >
          <ApprovalRulesSection form={form} levels />
        </fieldset>
        {editable ? (
          <Stack mt="lg">
            <DialogActions
              error={formError?.text ?? null}
              errorTitle={formError?.title}
              busy={save.isPending}
              onCancel={() => {
                form.reset();
                setFormError(null);
              }}
              cancelLabel="Deshacer cambios"
              confirmLabel="Guardar reglas"
              confirmIcon={<IconDeviceFloppy size={18} aria-hidden />}
              disabled={!form.isDirty()}
            />
          </Stack>
        ) : (
          <Alert color="gray" variant="light" icon={<IconEye size={18} />} mt="lg">
            Para cambiar las reglas de aprobación, pídelo a tu distribuidor.
          </Alert>
        )}
      </form>
    </Paper>
  );
}
