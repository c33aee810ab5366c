import '@mantine/core/styles/Progress.css';
import { Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { AuthorizerOrderView } from '@portal/shared/schemas/orders';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/orders/status-badge';
import { IdenticonAvatar } from '../../../components/ui/identicon-avatar';
import { formatCentavos, formatDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { type BudgetAfter, buyerName } from '../lib/order-edits';

/** Side panel: the ordering user and 'Pedidos del mes:' (their other non-cancelled orders). */
export function BuyerPanel({ view }: { view: AuthorizerOrderView }) {
  const { usuario, pedidos_del_mes } = view;
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="solicitante">
      <Text id="solicitante" size="xs" tt="uppercase" fw={700} c="dimmed" mb="sm">
        Solicitante
      </Text>
      <Group gap="sm" wrap="nowrap">
        <IdenticonAvatar value={usuario.usuario} size={48} radius="xl" />
        <div style={{ minWidth: 0 }}>
          <Text fw={700} data-testid="comprador-nombre" style={{ overflowWrap: 'anywhere' }}>
            {buyerName(usuario.nombre)}
          </Text>
          <Text size="sm" c="dimmed" data-testid="comprador-usuario" style={{ overflowWrap: 'anywhere' }}>
            {usuario.usuario}
          </Text>
        </div>
      </Group>

      <Title order={3} fz="sm" fw={700} mt="lg" mb="xs">
        Pedidos del mes:
      </Title>
      {pedidos_del_mes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No se hicieron más transacciones
        </Text>
      ) : (
        <Stack gap={6}>
          {pedidos_del_mes.map((o) => (
            <Button
              key={o.id}
              component={Link}
              to={`/autorizador/orden/${o.id}`}
              variant="default"
              fullWidth
              h="auto"
              py={8}
              justify="space-between"
              rightSection={<IconChevronRight size={16} aria-hidden />}
              styles={{ label: { flex: 1 } }}
            >
              <Group justify="space-between" w="100%" wrap="nowrap" gap="xs">
                <Stack gap={0} align="flex-start">
                  <Text size="sm" fw={700} ff="monospace">
                    {formatOrderNumber(o.id)}
                  </Text>
                  <Text size="xs" c="dimmed" fw={400}>
                    {formatDate(o.transaction_date)} · {formatMXN(o.total)}
                  </Text>
                </Stack>
                <StatusBadge status={o.status} size="sm" />
              </Group>
            </Button>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** Category budget mode: what is left in each category once this order is counted. */
export function CategoryBudgets({ budget }: { budget: BudgetAfter }) {
  if (budget.categorias.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="presupuesto-cat">
      <Text id="presupuesto-cat" size="xs" tt="uppercase" fw={700} c="dimmed" mb="sm">
        Presupuesto por categoría
      </Text>
      <Stack gap="md">
        {budget.categorias.map((c) => {
          const used = c.utilizado + c.pedido;
          const pct = c.disponible > 0 ? Math.min(100, (used / c.disponible) * 100) : used > 0 ? 100 : 0;
          const over = c.restante < 0;
          return (
            <div key={c.id}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={c.tocada ? 600 : 400}>
                  {c.nombre}
                </Text>
                <Text size="xs" c={over ? 'red' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  Restan {formatCentavos(c.restante)}
                </Text>
              </Group>
              <Progress
                value={pct}
                color={over ? 'red' : c.tocada ? 'indigo' : 'gray'}
                size="sm"
                mt={4}
                aria-label={`${c.nombre}: ${formatCentavos(used)} de ${formatCentavos(c.disponible)}`}
              />
              <Text size="xs" c="dimmed" mt={2}>
                {formatCentavos(used)} de {formatCentavos(c.disponible)}
                {c.pedido > 0 ? ` (este pedido: ${formatCentavos(c.pedido)})` : ''}
              </Text>
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}
