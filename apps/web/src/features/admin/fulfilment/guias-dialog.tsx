/**
 * 'Importar guías' on the "Surtido" queue (decision 0094): loaded when opened, with the file picker.
 */
import '@mantine/core/styles/Code.css';
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { GUIAS_IMPORT_MAX_BYTES, GUIAS_IMPORT_MAX_ROWS } from '@portal/shared/domain/fulfilment';
import type { GuiasImportResponse } from '@portal/shared/schemas/fulfilment';
import { IconFileUpload, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { formatCount, plural } from '../../../lib/format';
import { CsvFilePicker } from '../imports/csv-file-picker';
import { RowErrorsTable } from '../imports/import-result';
import { useImportGuias } from './api';

/** 'Importar guías': a CSV `pedido,guia,paqueteria`; each row ships its order; the refused rows are listed. */
export default function GuiasDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const importer = useImportGuias();
  const [file, setFile] = useState<File | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [result, setResult] = useState<GuiasImportResponse | null>(null);
  const close = () => {
    if (importer.isPending) return;
    onClose();
  };
  const reset = () => {
    setFile(null);
    setPickError(null);
    setResult(null);
    importer.reset();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      onExitTransitionEnd={reset}
      title="Importar guías"
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        {result ? (
          <Stack gap="sm" data-testid="resultado-guias">
            <Alert
              color={result.errores.length === 0 ? 'teal' : 'orange'}
              variant="light"
              icon={<IconListCheck size={20} aria-hidden />}
              title={result.msg}
              role="status"
            >
              {result.errores.length === 0
                ? 'Cada pedido del archivo quedó como «Enviado» y su comprador recibió la guía por correo.'
                : `${plural(result.errores.length, 'fila no se aplicó', 'filas no se aplicaron')}; corrígelas y vuelve a cargar el archivo: las filas ya aplicadas no se repiten.`}
            </Alert>
            {result.errores.length > 0 ? <RowErrorsTable errores={result.errores} /> : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={reset}>
                Cargar otro archivo
              </Button>
              <Button onClick={close}>Listo</Button>
            </Group>
          </Stack>
        ) : (
          <>
            <Text size="sm">
              Un archivo CSV con las columnas <Code>pedido</Code>, <Code>guia</Code> y, opcional,{' '}
              <Code>paqueteria</Code> (DHL, FedEx, Estafeta, Paquetexpress, 99minutos u otra). Cada fila pasa
              su pedido a «Enviado» con la guía; hasta {formatCount(GUIAS_IMPORT_MAX_ROWS)} filas.
            </Text>
            <CsvFilePicker
              file={file}
              error={pickError}
              disabled={importer.isPending}
              maxBytes={GUIAS_IMPORT_MAX_BYTES}
              onPick={(f, error) => {
                setFile(f);
                setPickError(error);
                importer.reset();
              }}
              onRemove={() => {
                setFile(null);
                importer.reset();
              }}
            />
            <DialogActions
              error={importer.isError ? errorMessage(importer.error) : null}
              errorTitle="No se pudo cargar el archivo"
              busy={importer.isPending}
              onCancel={close}
              onConfirm={() => {
                if (!file) {
                  setPickError('Elige el archivo CSV de guías.');
                  return;
                }
                importer.mutate(file, { onSuccess: setResult });
              }}
              confirmLabel="Cargar guías"
              confirmIcon={<IconFileUpload size={16} aria-hidden />}
            />
          </>
        )}
      </Stack>
    </Modal>
  );
}
