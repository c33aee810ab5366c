/** 'Categorías': the client's categories with icon, name, product count and edit. */
import '@mantine/core/styles/Table.css';
import { Button, EmptyState, Group, Skeleton, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { IconCategoryPlus, IconEdit, IconTags } from '@tabler/icons-react';
import { useState } from 'react';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { formatMXN } from '../../../lib/format';
import { CategoryDialog } from './category-dialog';

interface CategoriesPanelProps {
  idCliente: number;
  categories: AdminCategoryDto[];
  loading: boolean;
  /** Category budgets exist only when the client's budget mode is 'categoria'. */
  categoryMode: boolean;
  onShowProducts: (idCategoria: number) => void;
}

export function CategoriesPanel({
  idCliente,
  categories,
  loading,
  categoryMode,
  onShowProducts,
}: CategoriesPanelProps) {
  const [dialog, setDialog] = useState<{ opened: boolean; category: AdminCategoryDto | null }>({
    opened: false,
    category: null,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          {loading ? '' : `${categories.length} ${categories.length === 1 ? 'categoría' : 'categorías'}`}
        </Text>
        <Button
          leftSection={<IconCategoryPlus size={16} />}
          onClick={() => setDialog({ opened: true, category: null })}
        >
          Nueva categoria
        </Button>
      </Group>
      {loading ? (
        <Skeleton h={200} radius="md" />
      ) : categories.length === 0 ? (
        <EmptyState
          py="xl"
          variant="light"
          color="gray"
          icon={<IconTags size={26} stroke={1.6} />}
          title="Este cliente aún no tiene categorías"
          description="Crea la primera con «Nueva categoria»; cada producto pertenece a una."
        />
      ) : (
        <Table.ScrollContainer minWidth={460}>
          <Table verticalSpacing="sm" highlightOnHover aria-label="Categorías del cliente">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={64}>Icono</Table.Th>
                <Table.Th>Nombre</Table.Th>
                <Table.Th ta="right">Productos</Table.Th>
                {categoryMode ? <Table.Th ta="right">Presupuesto asignado</Table.Th> : null}
                <Table.Th ta="right">Acciones</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {categories.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <ThemeIcon variant="light" radius="md" size="lg" aria-hidden>
                      <CategoryIcon name={c.icono} size={20} />
                    </ThemeIcon>
                  </Table.Td>
                  <Table.Td fw={600}>{c.nombre}</Table.Td>
                  <Table.Td ta="right">
                    {c.productos > 0 ? (
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        onClick={() => onShowProducts(c.id)}
                        aria-label={`Ver productos de ${c.nombre} (${c.productos})`}
                      >
                        {c.productos}
                      </Button>
                    ) : (
                      <Text span size="sm" c="dimmed" pr={8}>
                        0
                      </Text>
                    )}
                  </Table.Td>
                  {categoryMode ? (
                    <Table.Td ta="right">{formatMXN(c.presupuesto_total_asignado)}</Table.Td>
                  ) : null}
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconEdit size={14} />}
                      onClick={() => setDialog({ opened: true, category: c })}
                      aria-label={`Editar categoría ${c.nombre}`}
                    >
                      Editar
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CategoryDialog
        opened={dialog.opened}
        category={dialog.category}
        idCliente={idCliente}
        onClose={() => setDialog((d) => ({ ...d, opened: false }))}
      />
    </Stack>
  );
}
