import { Button, Group, List, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { IconAlertTriangle, IconCheck, IconShoppingCart } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { addedLines, addResultSummary } from '../lib/add-result';

interface AddResultDialogProps {
  /** The answer of repetir, a list's al-carrito or the quick order (kept while the dialog fades out). */
  result: ReorderResponse | null;
  opened: boolean;
  onClose: () => void;
  /** The dialog's title; by default "Resultado". */
  title?: string;
}

interface ResultSectionProps {
  id: string;
  title: string;
  tone: 'ok' | 'skip';
  count: number;
  children: ReactNode;
}

/** One titled list of the result (nothing when it is empty). */
function ResultSection({ id, title, tone, count, children }: ResultSectionProps) {
  if (count === 0) return null;
  return (
    <section aria-labelledby={`resultado-${id}-titulo`}>
      <Title order={3} fz="sm" mb={6} id={`resultado-${id}-titulo`}>
        {title}
      </Title>
      <List
        spacing={6}
        size="sm"
        data-testid={`resultado-${id}`}
        icon={
          <ThemeIcon
            color={tone === 'ok' ? 'teal' : 'orange'}
            variant="light"
            size={20}
            radius="xl"
            aria-hidden
          >
            {tone === 'ok' ? <IconCheck size={14} /> : <IconAlertTriangle size={14} />}
          </ThemeIcon>
        }
      >
        {children}
      </List>
    </section>
  );
}

/** What an add of several products did: each added product with its units, each skipped one with its reason. */
export function AddResultDialog({ result, opened, onClose, title = 'Resultado' }: AddResultDialogProps) {
  const added = result ? addedLines(result) : [];
  const skipped = result?.omitidos ?? [];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      {result ? (
        <Stack gap="md">
          <Text data-testid="resultado-resumen">{addResultSummary(result)}</Text>
          <ResultSection id="agregados" title="Agregados" tone="ok" count={added.length}>
            {added.map((line, i) => (
              // A product may be added by two lines of a quick order.
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed for the dialog's life.
              <List.Item key={`${line.id}-${i}`} data-testid={`agregado-${line.id}`}>
                {line.nombre}{' '}
                <Text span c="dimmed" size="sm">
                  × {line.cantidad}
                  {line.limite !== null ? ` · ${MSG.maximoPorPedido(line.limite)}` : ''}
                </Text>
                {line.ajuste ? (
                  <Text size="xs" fw={600} data-testid="ajuste">
                    {line.ajuste}
                  </Text>
                ) : null}
              </List.Item>
            ))}
          </ResultSection>
          <ResultSection id="omitidos" title="No se agregaron" tone="skip" count={skipped.length}>
            {skipped.map((line) => (
              <List.Item key={line.id}>
                <Text size="sm" fw={600} span>
                  {line.nombre}
                </Text>
                <Text size="xs" c="dimmed">
                  {line.motivo}
                </Text>
              </List.Item>
            ))}
          </ResultSection>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cerrar
            </Button>
            <Button
              component={Link}
              to="/usuario/carrito"
              onClick={onClose}
              leftSection={<IconShoppingCart size={16} />}
            >
              Ir al carrito
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
