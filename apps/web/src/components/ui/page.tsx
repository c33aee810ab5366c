import { Box, EmptyState, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}

/** The title row of every page inside the app shell. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mb="lg">
      <Box>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" mt={4}>
            {description}
          </Text>
        ) : null}
      </Box>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}

interface PagePlaceholderProps extends PageHeaderProps {
  /** Icon of the empty state. */
  icon?: ReactNode;
  emptyTitle?: ReactNode;
  emptyDescription?: ReactNode;
  children?: ReactNode;
}

/** A page with its title and a tidy empty state (areas fill these in later). */
export function PagePlaceholder({
  icon,
  emptyTitle = 'Aún no hay nada por aquí',
  emptyDescription = 'Esta sección estará disponible muy pronto.',
  children,
  ...header
}: PagePlaceholderProps) {
  return (
    <Stack gap={0}>
      <PageHeader {...header} />
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs">
        <EmptyState
          color="indigo"
          variant="light"
          icon={icon ?? <IconLayoutDashboard size={28} stroke={1.6} />}
          title={emptyTitle}
          description={emptyDescription}
        >
          {children}
        </EmptyState>
      </Paper>
    </Stack>
  );
}
