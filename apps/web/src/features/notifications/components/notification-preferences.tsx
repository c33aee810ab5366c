/**
 * "Notificaciones" in the profile menu (decision 0114): for each kind of notice the person's role receives,
 * how it reaches them — an e-mail at once, an hourly or a daily digest, or only the bell — and the daily
 * digest's hour. Checked with the shared NotificationPreferencesBody; a refusal of the server under its
 * field, any other above the buttons.
 */
import { Checkbox, Divider, Select, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { NOTIFICATION_KIND_LABELS } from '@portal/shared/domain/notifications';
import { NotificationPreferencesBody } from '@portal/shared/schemas/notifications';
import { IconClock } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { LoadError, LoadingRows } from '../../../components/ui/list-states';
import {
  type NotificationPreferences,
  notificationKeys,
  preferencesQuery,
  savePreferences,
} from '../api/notifications';
import {
  CHANNEL_OPTIONS,
  HOUR_OPTIONS,
  type PreferenceValues,
  preferenceRefusal,
  preferencesBody,
  preferenceValues,
  usesDailyDigest,
  usesPhone,
} from '../lib/preferences';
import { PushDevice } from './push-device';

/** The success notice's title. */
export const PREFERENCES_SAVED = 'Notificaciones guardadas';

interface NotificationPreferencesPanelProps {
  /** After a save, or on "Cancelar" (the profile menu closes its dialog). */
  onDone: () => void;
}

export function NotificationPreferencesPanel({ onDone }: NotificationPreferencesPanelProps) {
  const prefs = useQuery(preferencesQuery);
  if (prefs.isPending) return <LoadingRows label="Cargando preferencias" rows={4} height={60} p={0} />;
  if (prefs.isError)
    return (
      <LoadError
        title="No se pudieron cargar tus preferencias"
        error={prefs.error}
        onRetry={() => void prefs.refetch()}
      />
    );
  return <PreferencesForm prefs={prefs.data} onDone={onDone} />;
}

function PreferencesForm({ prefs, onDone }: { prefs: NotificationPreferences; onDone: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<PreferenceValues>({
    mode: 'controlled',
    initialValues: preferenceValues(prefs),
    validate: (values) =>
      schemaResolver(NotificationPreferencesBody, { sync: true })(preferencesBody(values)),
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: savePreferences,
    onSuccess: (next) => {
      queryClient.setQueryData(notificationKeys.preferences, next);
      showSuccess(PREFERENCES_SAVED);
      onDone();
    },
    onError: (error) => {
      const placed = preferenceRefusal(error);
      form.setErrors(placed.fields);
      setRefusal(placed.refusal);
    },
  });
  const daily = usesDailyDigest(form.values);
  const phone = usesPhone(form.values);

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setRefusal(null);
        save.mutate(preferencesBody(values));
      })}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Elige cómo quieres enterarte de cada tipo de aviso. Todos los avisos aparecen también en la campana
          del portal.
        </Text>
        {prefs.tipos.map((kind) => (
          <Select
            key={kind}
            label={NOTIFICATION_KIND_LABELS[kind]}
            data={CHANNEL_OPTIONS}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps(`canales.${kind}`)}
          />
        ))}
        <Select
          label="Hora del resumen diario"
          description={
            daily
              ? 'El resumen diario llega a esta hora (hora del negocio).'
              : 'Solo para los avisos con «Resumen diario».'
          }
          data={HOUR_OPTIONS}
          allowDeselect={false}
          disabled={!daily}
          leftSection={<IconClock size={16} aria-hidden />}
          maxDropdownHeight={240}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('resumen_hora')}
        />
        <Checkbox
          label="Mostrar importes en los avisos del teléfono"
          description={
            phone
              ? 'Sin esta opción, la pantalla bloqueada solo dice qué pasó, nunca cuánto.'
              : 'Solo para los avisos «En el teléfono».'
          }
          disabled={!phone}
          {...form.getInputProps('importes_en_telefono', { type: 'checkbox' })}
        />
        <Divider />
        {phone && prefs.telefonos === 0 ? (
          <Text size="sm" fw={500}>
            Ningún dispositivo recibe tus avisos todavía: mientras tanto llegan solo a la campana.
          </Text>
        ) : null}
        <PushDevice />
        <DialogActions error={refusal} busy={save.isPending} onCancel={onDone} confirmLabel="Guardar" />
      </Stack>
    </form>
  );
}

export default NotificationPreferencesPanel;
