/**
 * 'Pedido rápido': the buyer pastes (from Excel) or types lines of clave and quantity and adds them all;
 * the shared add-result dialog says what was added and skipped, and the lines the server did not
 * recognise stay listed under the form by line number (docs/domain.md "Cart", decision 0045).
 */
import { Alert, Button, Group, List, Paper, Stack, Text, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { QUICK_ORDER_TEXT_MAX } from '@portal/shared/domain/quick-order';
import { MSG } from '@portal/shared/messages';
import { QuickOrderBody, type QuickOrderResponse } from '@portal/shared/schemas/quick-order';
import { IconAlertTriangle, IconShoppingCartPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { applyFieldErrors, serverFieldErrors } from '../../../lib/form-errors';
import { useQuickOrder } from '../api/quick-order';
import { addedLines } from '../lib/add-result';
import { AddResultDialog } from './add-result-dialog';

const PLACEHOLDER = ['ABC-001\t5', 'ABC-002, 12', 'PAP-100; 3', 'LIMP-07 1'].join('\n');

/** The lines the server could not use: unknown claves and unreadable lines, in line order. */
function ProblemLines({ result }: { result: QuickOrderResponse }) {
  const lines = [
    ...result.desconocidas.map((d) => ({
      linea: d.linea,
      text: `${d.clave}: no es la clave de ningún producto asignado a tu usuario.`,
    })),
    ...result.invalidas.map((i) => ({ linea: i.linea, text: `«${i.texto}»: ${i.motivo}` })),
  ].sort((a, b) => a.linea - b.linea);
  if (lines.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={lines.length === 1 ? '1 línea no se agregó' : `${lines.length} líneas no se agregaron`}
      data-testid="pedido-rapido-lineas"
    >
      <List size="sm" spacing={4}>
        {lines.map((l) => (
          <List.Item key={l.linea}>
            <Text span fw={700} size="sm">
              Línea {l.linea}
            </Text>{' '}
            — {l.text}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The lines added with fewer units than asked because of the product's maximum (never cut silently). */
function CutLines({ result }: { result: QuickOrderResponse }) {
  const cut = addedLines(result).filter((l) => l.ajuste !== null);
  if (cut.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={
        cut.length === 1 ? '1 línea se ajustó a tu límite' : `${cut.length} líneas se ajustaron a tu límite`
      }
      data-testid="pedido-rapido-ajustados"
    >
      <List size="sm" spacing={4}>
        {cut.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a product may be cut on two lines; the list is fixed.
          <List.Item key={`${l.id}-${i}`}>
            <Text span fw={700} size="sm">
              {l.nombre}:
            </Text>{' '}
            {l.ajuste}
            {l.limite !== null ? ` (${MSG.maximoPorPedido(l.limite)})` : ''}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

export function QuickOrderForm() {
  const quick = useQuickOrder();
  const [result, setResult] = useState<QuickOrderResponse | null>(null);
  const [resultOpen, setResultOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { texto: '' },
    validate: (values) => schemaResolver(QuickOrderBody, { sync: true })(values),
    onValuesChange: () => setFailure(null),
  });

  const submit = form.onSubmit((values) =>
    quick.mutate(values, {
      onSuccess: (res) => {
        setResult(res);
        setResultOpen(true);
      },
      onError: (error) => {
        // A 400 on the text goes under the field; anything else below it.
        const rest = applyFieldErrors(form, error);
        if ('texto' in serverFieldErrors(error)) return;
        setFailure(Object.values(rest)[0] ?? errorMessage(error));
      },
    }),
  );

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" shadow="xs" p="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Textarea
              label="Claves y cantidades"
              description="Una línea por producto: la clave interna o tu clave cliente y la cantidad, separadas por un tabulador (como copia Excel), una coma, un punto y coma o espacios. Hasta 200 líneas."
              placeholder={PLACEHOLDER}
              autosize
              minRows={8}
              maxRows={18}
              maxLength={QUICK_ORDER_TEXT_MAX}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              data-autofocus
              {...form.getInputProps('texto')}
            />
            {failure ? (
              <Alert color="red" variant="light">
                {failure}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconShoppingCartPlus size={16} />}
                loading={quick.isPending}
              >
                Agregar al carrito
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {result ? <CutLines result={result} /> : null}
      {result ? <ProblemLines result={result} /> : null}
      <AddResultDialog
        result={result}
        opened={resultOpen}
        onClose={() => setResultOpen(false)}
        title="Pedido rápido"
      />
    </Stack>
  );
}
