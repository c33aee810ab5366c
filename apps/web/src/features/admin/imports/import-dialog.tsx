/**
 * The CSV import dialog for products ('Cargar productos') and users ('Importación
 * por archivo', which also offers 'Asignaciones': products per user): 1) download the template, 2) choose a CSV (only CSV; the import button stays disabled
 * until there is a file), for products 3) «Vista previa de precios»: what the file's prices touch, read by
 * the server from the chosen file before anything is saved (decision 0132), then upload it — the server
 * answers at once ('Procesando archivo') and a background job processes it; the dialog shows its progress
 * and result (counts and per-row errors), and the client's recent imports with their error reports.
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import { Alert, Button, Divider, Group, Modal, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MSG } from '@portal/shared/messages';
import type { ImportKind } from '@portal/shared/schemas/imports';
import { IconAlertTriangle, IconDownload, IconFileImport } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Refusal } from '../../../components/ui/refusal';
import { isApiError } from '../../../lib/api';
import { adminKeys } from '../api/keys';
import { CsvFilePicker } from './csv-file-picker';
import { ImportHistory } from './import-history';
import {
  announceAccepted,
  downloadTemplate,
  KIND_LABELS,
  previewProductPrices,
  TEMPLATE_FILENAMES,
  trackImport,
  uploadImport,
} from './import-jobs';
import { ImportPricePreview } from './import-price-preview';
import { ImportResult } from './import-result';
import { Step } from './step';

const TITLES: Record<ImportKind, string> = {
  productos: 'Cargar productos',
  usuarios: 'Importación por archivo',
  asignaciones: 'Importación por archivo',
};

const INTRO: Record<ImportKind, string> = {
  productos:
    'Da de alta o actualiza productos en bloque. Se identifican por su clave interna; las categorías que no existan se crean.',
  usuarios:
    'Da de alta o actualiza usuarios en bloque. Se identifican por su usuario; cada usuario nuevo recibe un correo para establecer su contraseña.',
  asignaciones:
    'Habilita o deshabilita productos para los usuarios en bloque: una fila por usuario y clave interna. «Asignado» vacío es 1 (habilitado); «Cantidad límite» vacía conserva la que tenga (las nuevas toman la cantidad límite por defecto del cliente).',
};

interface ImportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** What the dialog imports first. */
  kind: ImportKind;
  /** The kinds offered to choose from (the first step shows a choice when there are several). */
  kinds?: readonly ImportKind[];
  idCliente: number;
  clienteNombre?: string;
}

export function ImportDialog({
  opened,
  onClose,
  kind: firstKind,
  kinds,
  idCliente,
  clienteNombre,
}: ImportDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const [kind, setKind] = useState<ImportKind>(firstKind);
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [templateError, setTemplateError] = useState<string | null>(null);
  const [currentId, setCurrentId] = useState<number | null>(null);

  const template = useMutation({
    mutationFn: () => downloadTemplate(kind, idCliente),
    onError: () => setTemplateError(MSG.plantillaFallida),
    onSuccess: () => setTemplateError(null),
  });

  // A product file's prices are previewed as soon as it is chosen (nothing is saved).
  const preview = useMutation({
    mutationFn: (f: File) => previewProductPrices(idCliente, f),
  });
  // A refusal of the file (4xx) is the server's own message; anything else, a retry later.
  const refusal = isApiError(preview.error) && preview.error.status < 500 ? preview.error : null;
  const previewRefused = refusal !== null;
  const previewError = preview.error ? refusal?.msg || 'Inténtalo de nuevo en unos momentos.' : null;
  const withPreview = kind === 'productos';
  function choose(chosen: File | null) {
    setFile(chosen);
    preview.reset();
    if (chosen && withPreview) preview.mutate(chosen);
  }

  const upload = useMutation({
    mutationFn: (f: File) => uploadImport(kind, idCliente, f),
    onSuccess: (accepted) => {
      announceAccepted(accepted);
      trackImport(accepted.id_importacion, kind, idCliente);
      setCurrentId(accepted.id_importacion);
      choose(null);
      void queryClient.invalidateQueries({ queryKey: adminKeys.imports });
    },
    onError: (error) => {
      // A clear refusal from the server (not a CSV, wrong header, empty file...) is shown as it is.
      const specific = isApiError(error) && error.status >= 400 && error.status < 500 && error.msg;
      setUploadError(specific ? error.msg : MSG.subidaFallida);
    },
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setUploadError(null);
    if (!file) {
      setFileError(MSG.archivoNoSeleccionado);
      return;
    }
    upload.mutate(file);
  }

  function close() {
    if (upload.isPending) return;
    choose(null);
    setFileError(null);
    setUploadError(null);
    onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="56rem"
      fullScreen={phone}
      centered={!phone}
      title={
        <span>
          {TITLES[kind]}
          {clienteNombre ? (
            <Text component="span" c="dimmed" fw={500} size="sm" ml={8}>
              {clienteNombre}
            </Text>
          ) : null}
        </span>
      }
    >
      <Stack gap="lg">
        {kinds && kinds.length > 1 ? (
          <SegmentedControl
            aria-label="Qué importar"
            value={kind}
            onChange={(value) => {
              setKind(value as ImportKind);
              choose(null);
              setFileError(null);
              setUploadError(null);
            }}
            disabled={upload.isPending}
            data={kinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            w={{ base: '100%', xs: 'auto' }}
            style={{ alignSelf: 'flex-start' }}
          />
        ) : null}
        <Text size="sm" c="dimmed">
          {INTRO[kind]}
        </Text>

        <Step n={1} title="Descarga la plantilla">
          <Text size="sm">
            Trae las columnas que espera el sistema y una fila de ejemplo. Llénala en Excel y guárdala como
            «CSV UTF-8 (delimitado por comas)».
          </Text>
          <Group>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              loading={template.isPending}
              onClick={() => template.mutate()}
            >
              Descargar plantilla
            </Button>
            <Text size="xs" c="dimmed">
              {TEMPLATE_FILENAMES[kind]}
            </Text>
          </Group>
          <Refusal error={templateError} onClose={() => setTemplateError(null)} mt="xs" />
        </Step>

        <form onSubmit={submit} noValidate>
          <Step n={2} title="Selecciona el archivo CSV">
            <CsvFilePicker
              file={file}
              error={fileError}
              disabled={upload.isPending}
              onPick={(chosen, error) => {
                setUploadError(null);
                choose(chosen);
                setFileError(error);
              }}
              onRemove={() => choose(null)}
            />
            {uploadError ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} />}
                title={MSG.subidaFallida}
                role="alert"
              >
                {uploadError === MSG.subidaFallida ? 'Inténtalo de nuevo en unos momentos.' : uploadError}
              </Alert>
            ) : null}
          </Step>
          {withPreview ? (
            <Stack mt="lg">
              <Step n={3} title="Vista previa de precios">
                <ImportPricePreview
                  hasFile={file !== null}
                  loading={preview.isPending}
                  error={previewError}
                  preview={preview.data}
                />
              </Step>
            </Stack>
          ) : null}
          <Group justify="flex-end" gap="sm" mt="md">
            <Button variant="default" onClick={close} disabled={upload.isPending}>
              Cerrar
            </Button>
            <Button
              type="submit"
              leftSection={<IconFileImport size={16} />}
              // A product file the preview refused would be refused by the upload too.
              disabled={!file || (withPreview && (preview.isPending || previewRefused))}
              loading={upload.isPending}
            >
              Importar
            </Button>
          </Group>
        </form>

        {currentId !== null ? <ImportResult id={currentId} /> : null}

        <Divider />
        <Stack gap="xs">
          <Title order={3} fz="md">
            Importaciones recientes
          </Title>
          <ImportHistory idCliente={idCliente} onSelect={setCurrentId} selectedId={currentId} />
        </Stack>
      </Stack>
    </Modal>
  );
}

interface ImportButtonProps {
  kind: ImportKind;
  kinds?: readonly ImportKind[];
  idCliente: number;
  clienteNombre?: string;
  label?: string;
  variant?: string;
}

/** The button that opens the import dialog ('Cargar productos', 'Importación por archivo'). */
export function ImportButton({
  kind,
  kinds,
  idCliente,
  clienteNombre,
  label,
  variant = 'light',
}: ImportButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant={variant} leftSection={<IconFileImport size={16} />} onClick={() => setOpened(true)}>
        {label ?? TITLES[kind]}
      </Button>
      <ImportDialog
        opened={opened}
        onClose={() => setOpened(false)}
        kind={kind}
        kinds={kinds}
        idCliente={idCliente}
        clienteNombre={clienteNombre}
      />
    </>
  );
}
