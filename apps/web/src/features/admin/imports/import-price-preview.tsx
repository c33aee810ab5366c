/**
 * Step 3 of a product import («Vista previa de precios», decision 0132): before the upload, the server reads
 * the chosen file as its import would and answers what its prices touch; nothing is saved until «Importar».
 */
import { Group, List, Loader, Stack, Text } from '@mantine/core';
import type { ImportPricePreview as Preview } from '@portal/shared/schemas/imports';
import { Refusal } from '../../../components/ui/refusal';
import { formatCount, plural } from '../../../lib/format';
import { PricePreviewSummary } from '../inventory/price-preview-summary';

interface ImportPricePreviewProps {
  /** The chosen file (none yet: a hint). */
  hasFile: boolean;
  loading: boolean;
  /** Why the file cannot be previewed (the upload would refuse it too). */
  error: string | null;
  preview: Preview | undefined;
}

export function ImportPricePreview({ hasFile, loading, error, preview }: ImportPricePreviewProps) {
  if (!hasFile)
    return (
      <Text size="sm" c="dimmed">
        Al elegir el archivo verás qué precios cambian y a quién afectan, antes de importarlo.
      </Text>
    );
  if (loading)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">Leyendo los precios del archivo…</Text>
      </Group>
    );
  if (error) return <Refusal error={error} title="No se pudo preparar la vista previa" />;
  if (!preview) return null;
  return (
    <Stack gap="sm" data-testid="vista-previa-importacion">
      <List size="sm" spacing={2}>
        <List.Item>
          {plural(preview.filas, 'fila leída', 'filas leídas')}
          {preview.filas_con_error > 0
            ? `, ${formatCount(preview.filas_con_error)} con errores (el reporte de la importación dice cuáles y por qué)`
            : ''}
        </List.Item>
        <List.Item>
          {plural(preview.precios_ahora, 'precio cambia al importar', 'precios cambian al importar')}
        </List.Item>
        <List.Item>
          {plural(
            preview.precios_programados,
            'precio programado para su fecha',
            'precios programados para su fecha',
          )}
        </List.Item>
        <List.Item>{plural(preview.productos_nuevos, 'producto nuevo', 'productos nuevos')}</List.Item>
      </List>
      <PricePreviewSummary
        preview={preview}
        title="Lo que tocan los precios que cambian"
        unchanged="Ningún precio de un producto existente cambia: carritos, listas y pedidos quedan igual."
        afterLabel="Con el archivo"
      />
    </Stack>
  );
}
