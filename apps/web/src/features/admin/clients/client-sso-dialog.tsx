/**
 * «Inicio de sesión de la empresa» of a client (issue 40 item 4, decision 0120): its identity provider
 * (OpenID Connect issuer, client id and secret), the e-mail domains it covers, whether its users must sign
 * in through it and whether a first sign-in creates the account; the return address to register at the
 * provider; «Guardar» and «Quitar». Opened from the row's menu of the clients list, and by a client
 * administrator allowed `identidad` from «Mi empresa» for its own client (decision 0122).
 */
import { Button, Group, Modal, Paper, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { SsoConfigBody, type SsoConfigView } from '@portal/shared/schemas/sso';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { CopyField } from '../../../components/ui/copy-field';
import { FormSection } from '../../../components/ui/form-section';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { useClientSso, useRemoveClientSso, useSaveClientSso } from './api';
import {
  missingSecret,
  returnAddress,
  type SsoFormValues,
  ssoBody,
  ssoInitialValues,
} from './client-sso-values';

interface ClientSsoDialogProps {
  opened: boolean;
  client: ClientDto | null;
  onClose: () => void;
}

export function ClientSsoDialog({ opened, client, onClose }: ClientSsoDialogProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const state = useClientSso(client?.id ?? 0, opened && client !== null);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Inicio de sesión de la empresa"
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {!client ? null : state.isPending ? (
        <LoadingRows label="Cargando inicio de sesión de la empresa" rows={6} />
      ) : state.isError ? (
        <LoadError
          title="No se pudo cargar el inicio de sesión de la empresa"
          error={state.error}
          onRetry={() => void state.refetch()}
        />
      ) : (
        // A fresh form for each saved state: its fields start from what the server holds.
        <SsoEditor
          key={state.data?.actualizado ?? 'nuevo'}
          client={client}
          view={state.data}
          onDone={onClose}
        />
      )}
    </Modal>
  );
}

function SsoEditor({
  client,
  view,
  onDone,
}: {
  client: ClientDto;
  view: SsoConfigView | null;
  onDone: () => void;
}) {
  const save = useSaveClientSso(client.id);
  const remove = useRemoveClientSso(client.id);
  // A refusal that belongs to no field, above the buttons.
  const [refusal, setRefusal] = useState<string | null>(null);
  const stored = view?.tiene_secreto ?? false;
  const form = useForm<SsoFormValues>({
    mode: 'controlled',
    initialValues: ssoInitialValues(view),
    validate: (values) => ({
      ...schemaResolver(SsoConfigBody, { sync: true })(ssoBody(values)),
      ...missingSecret(values, stored),
    }),
    onValuesChange: () => setRefusal(null),
  });
  const busy = save.isPending || remove.isPending;

  const submit = form.onSubmit((values) => {
    setRefusal(null);
    save.mutate(ssoBody(values), {
      onSuccess: () => {
        showSuccess(MSG.ssoGuardado);
        onDone();
      },
      onError: (error) => {
        // A 400's field messages go under their fields; the server's message above the buttons.
        applyFieldErrors(form, error);
        setRefusal(errorMessage(error));
      },
    });
  });

  const confirmRemove = () =>
    confirmAction({
      title: `¿Quitar el inicio de sesión de la empresa de ${client.nombre}?`,
      message:
        'Sus usuarios volverán a entrar con su usuario y contraseña; quien no tenga una puede pedirla con «Recuperar mi contraseña».',
      confirmLabel: 'Quitar',
      danger: true,
      onConfirm: async () => {
        await remove.mutateAsync();
        showSuccess(MSG.ssoEliminado);
        onDone();
      },
    });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Text size="sm">
          Los usuarios de <strong>{client.nombre}</strong> entran con la cuenta de su empresa (OpenID Connect)
          cuando su correo es de uno de sus dominios.
          {view ? ` Guardado el ${formatDateTime(view.actualizado)}.` : null}
        </Text>
        <FormSection title="Proveedor de identidad">
          <TextInput
            label="Emisor (issuer)"
            description="La dirección del proveedor; el portal lee su configuración de /.well-known/openid-configuration."
            placeholder="https://login.empresa.com.mx"
            withAsterisk
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            {...form.getInputProps('emisor')}
          />
          <TextInput
            label="Identificador de cliente"
            description="El client id que te dio el proveedor."
            withAsterisk
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('id_cliente')}
          />
          <PasswordInput
            label="Secreto de cliente"
            description="El client secret; nunca se vuelve a mostrar."
            placeholder={stored ? 'Guardado — déjalo vacío para conservarlo' : undefined}
            withAsterisk={!stored}
            autoComplete="new-password"
            {...form.getInputProps('secreto')}
          />
          <CopyField
            label="Dirección de retorno"
            description="Regístrala en tu proveedor como dirección de redirección (redirect URI)."
            value={returnAddress(view, window.location.origin)}
          />
        </FormSection>
        <FormSection title="Usuarios">
          <TextInput
            label="Dominios"
            description="Los dominios de correo de la empresa, separados por comas: empresa.com.mx, empresa.mx"
            placeholder="empresa.com.mx"
            withAsterisk
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('dominios')}
          />
          <Switch
            label="Obligatorio para sus usuarios"
            description="Sus usuarios, autorizadores y super autorizadores ya no podrán entrar con contraseña, solo con la cuenta de la empresa."
            {...form.getInputProps('obligatorio', { type: 'checkbox' })}
          />
          <Switch
            label="Dar de alta automáticamente a quien entre por primera vez"
            description="Con un correo verificado de sus dominios, entra como Usuario con el presupuesto y los límites del cliente."
            {...form.getInputProps('alta_automatica', { type: 'checkbox' })}
          />
          <Switch
            label="Activo"
            description="Apagado, nadie entra con la cuenta de la empresa: todos usan su usuario y contraseña."
            {...form.getInputProps('activo', { type: 'checkbox' })}
          />
        </FormSection>
        {/* Always in sight at the dialog's foot, as in the other long forms (form-footer.tsx). */}
        <Paper
          pos="sticky"
          bottom={0}
          pt="md"
          pb="md"
          radius={0}
          bg="var(--mantine-color-body)"
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 2 }}
        >
          <Stack gap="sm">
            <Refusal error={refusal} onClose={() => setRefusal(null)} />
            <Group justify="space-between" gap="sm">
              {view ? (
                <Button
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={18} aria-hidden />}
                  onClick={confirmRemove}
                  disabled={busy}
                >
                  Quitar
                </Button>
              ) : null}
              <Group gap="sm" ml="auto">
                <Button variant="default" onClick={onDone} disabled={busy}>
                  Cancelar
                </Button>
                <Button
                  type="submit"
                  loading={save.isPending}
                  disabled={busy}
                  leftSection={<IconDeviceFloppy size={18} aria-hidden />}
                >
                  Guardar
                </Button>
              </Group>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    </form>
  );
}
