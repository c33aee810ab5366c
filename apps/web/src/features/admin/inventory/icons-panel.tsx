/** 'Iconos': the icon catalogue categories choose from, with their names. */
import { Badge, Paper, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { ICONO_ETIQUETAS, ICONOS } from '@portal/shared/domain/icons';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { CategoryIcon } from '../../../components/ui/category-icon';

export function IconsPanel({ categories }: { categories: AdminCategoryDto[] }) {
  const used = new Map<string, string[]>();
  for (const c of categories) used.set(c.icono, [...(used.get(c.icono) ?? []), c.nombre]);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {ICONOS.length} iconos disponibles. Elige uno al crear o editar una categoría
        {categories.length ? '; los que ya usa este cliente están marcados.' : '.'}
      </Text>
      <SimpleGrid
        cols={{ base: 2, xs: 3, sm: 4, lg: 5 }}
        spacing="sm"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {ICONOS.map((nombre) => {
          const usedBy = used.get(nombre);
          return (
            <Paper
              key={nombre}
              component="li"
              withBorder
              radius="md"
              p="sm"
              style={{ borderColor: usedBy ? 'var(--mantine-color-indigo-3)' : undefined }}
              title={usedBy ? `${nombre} · En uso: ${usedBy.join(', ')}` : nombre}
            >
              <Stack gap={6} align="center">
                <ThemeIcon variant={usedBy ? 'filled' : 'light'} size={44} radius="md" aria-hidden>
                  <CategoryIcon name={nombre} size={24} />
                </ThemeIcon>
                <Text size="sm" fw={600} ta="center" lh={1.2}>
                  {ICONO_ETIQUETAS[nombre]}
                </Text>
                {usedBy ? (
                  <Badge size="xs" variant="light" radius="sm">
                    En uso
                  </Badge>
                ) : null}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
