/** A numbered step of an upload (the import dialog's, the HR list's): its number in a circle, its title and its content. */
import { Group, Stack, Text, ThemeIcon, Title, type TitleOrder } from '@mantine/core';
import type { ReactNode } from 'react';

export function Step({
  n,
  title,
  order = 3,
  children,
}: {
  n: number;
  title: string;
  /** The title's heading level: 3 inside a dialog, 2 on a page of its own. */
  order?: TitleOrder;
  children: ReactNode;
}) {
  return (
    <Group align="flex-start" gap="md" wrap="nowrap">
      <ThemeIcon radius="xl" size={28} variant="light" aria-hidden>
        <Text fw={700} size="sm">
          {n}
        </Text>
      </ThemeIcon>
      <Stack gap={8} style={{ flex: 1, minWidth: 0 }}>
        <Title order={order} fz="md">
          {title}
        </Title>
        {children}
      </Stack>
    </Group>
  );
}
