/**
 * Fulfilment in bulk on the "Surtido" queue (docs/domain.md "Fulfilment", decision 0094): the bar that moves
 * the selected orders together, the summary of what happened to each one, and the guías file dialog with
 * its refused rows.
 */
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Code,
  Group,
  List,
  Menu,
  Modal,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import {
  FULFILMENT_LABELS,
  FULFILMENT_STATES,
  type FulfilmentState,
  GUIAS_IMPORT_MAX_BYTES,
  GUIAS_IMPORT_MAX_ROWS,
} from '@portal/shared/domain/fulfilment';
import type { BulkFulfilmentResponse, GuiasImportResponse } from '@portal/shared/schemas/fulfilment';
import { IconChevronUp, IconFileUpload, IconListCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { CsvFilePicker } from '../imports/csv-file-picker';
import { RowErrorsTable } from '../imports/import-result';
import { useImportGuias } from './api';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** At the foot of the queue while orders are selected: how many, and 'Mover a…' any later state. */
export function BulkMoveBar({
  count,
  busy,
  onMove,
  onClear,
}: {
  count: number;
  busy: boolean;
  onMove: (estado: FulfilmentState) => void;
  onClear: () => void;
}) {
  if (count === 0) return null;
  return (
    <Paper
      pos="sticky"
      bottom={0}
      withBorder
      shadow="md"
      radius="md"
      p="sm"
      mt="sm"
      style={{ zIndex: 5 }}
      role="region"
      aria-label="Acciones sobre los pedidos seleccionados"
      data-testid="barra-surtido"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" fw={600} aria-live="polite">
          {plural(count, 'pedido seleccionado', 'pedidos seleccionados')}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button variant="subtle" color="gray" size="sm" onClick={onClear}>
            Quitar selección
          </Button>
          <Menu position="top-end" withinPortal>
            <Menu.Target>
              <Button size="sm" loading={busy} rightSection={<IconChevronUp size={14} aria-hidden />}>
                Mover seleccionados a…
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>Cada pedido avanza por su cuenta</Menu.Label>
              {FULFILMENT_STATES.filter((s) => s !== 'por_surtir').map((estado) => (
                <Menu.Item key={estado} onClick={() => onMove(estado)}>
                  {FULFILMENT_LABELS[estado]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}

/** What a bulk move did, order by order: the state it reached, or why it stayed where it was. */
export function BulkMoveSummary({
  result,
  onClose,
}: {
  result: BulkFulfilmentResponse;
  onClose: () => void;
}) {
  const ok = result.resultados.filter((r) => r.ok).length;
  const failed = result.resultados.length - ok;
  const title =
    failed === 0
      ? `${plural(ok, 'pedido movido', 'pedidos movidos')}`
      : `${ok} de ${plural(result.resultados.length, 'pedido movido', 'pedidos movidos')}; ${plural(failed, 'no se movió', 'no se movieron')}`;
  return (
    <Alert
      color={failed === 0 ? 'teal' : 'orange'}
      variant="light"
      icon={<IconListCheck size={20} aria-hidden />}
      title={title}
      mb="md"
      role="status"
      data-testid="resumen-surtido"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <List size="sm" spacing={4} style={{ flex: 1, minWidth: 0 }}>
          {result.resultados.map((r) => (
            <List.Item key={r.id}>
              <Group gap="xs" wrap="wrap">
                <Text span size="sm" ff="monospace" fw={600}>
                  {formatOrderNumber(r.id)}
                </Text>
                {r.ok && r.estado ? (
                  <Badge color="teal" variant="light" size="sm">
                    {FULFILMENT_LABELS[r.estado]}
                  </Badge>
                ) : (
                  <>
                    <Badge color="red" variant="light" size="sm">
                      No se movió
                    </Badge>
                    <Text span size="sm">
                      {r.error}
                    </Text>
                  </>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
        <CloseButton aria-label="Cerrar resumen" onClick={onClose} />
      </Group>
    </Alert>
  );
}

/** 'Importar guías': a CSV `pedido,guia,paqueteria`; each row ships its order; the refused rows are listed. */
export function GuiasDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
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
              su pedido a «Enviado» con la guía; hasta {GUIAS_IMPORT_MAX_ROWS.toLocaleString('es-MX')} filas.
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
