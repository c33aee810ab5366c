/** The user form's budgets in category mode: one amount per category of the client, and their total. */
import { Alert, Group, NumberInput, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { formatMXN } from '@portal/shared/domain/money';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { isDistributor } from '../scope';
import { useAdminScope } from '../scope-context';
import { amount } from './user-form-values';

export function CategoryBudgets({
  categories,
  loading,
  values,
  errors,
  onChange,
  disabled = false,
}: {
  categories: AdminCategoryDto[];
  loading: boolean;
  /** The scope may not change budgets: shown, not editable. */
  disabled?: boolean;
  values: Record<string, number | string>;
  errors: Record<string, ReactNode>;
  onChange: (id: number, value: number | string) => void;
}) {
  const distributor = isDistributor(useAdminScope());
  if (loading)
    return <Skeleton height={120} radius="md" role="status" aria-busy aria-label="Cargando categorías" />;
  if (categories.length === 0) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
        {distributor
          ? 'Este cliente aún no tiene categorías. Créalas en Inventario para asignar presupuestos por categoría.'
          : 'Tu empresa aún no tiene categorías: las crea tu distribuidor.'}
      </Alert>
    );
  }
  const total = categories.reduce((sum, c) => sum + Math.max(0, amount(values[String(c.id)] ?? 0)), 0);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {categories.map((c) => (
          <NumberInput
            key={c.id}
            label={c.nombre}
            leftSection={<CategoryIcon name={c.icono} size={16} />}
            prefix="$"
            min={0}
            decimalScale={2}
            fixedDecimalScale
            thousandSeparator=","
            allowNegative={false}
            placeholder="$0.00"
            disabled={disabled}
            value={values[String(c.id)] ?? ''}
            onChange={(v) => onChange(c.id, v)}
            error={errors[`categorias.${c.id}`]}
          />
        ))}
      </SimpleGrid>
      <Paper bg="indigo.0" radius="md" p="sm">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Presupuesto total
          </Text>
          <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="presupuesto-total">
            {formatMXN(total)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          Solo se guardan las categorías con presupuesto mayor a 0.
        </Text>
      </Paper>
    </Stack>
  );
}
