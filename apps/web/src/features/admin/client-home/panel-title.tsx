/** The title of a card of «Mi empresa», with its icon on the right. */
import { Group, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function PanelTitle({
  id,
  title,
  color,
  icon,
}: {
  /** The heading's id, which the card's aria-labelledby names. */
  id: string;
  title: string;
  color: string;
  icon: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap">
      <Title order={2} fz="lg" id={id}>
        {title}
      </Title>
      <ThemeIcon size={36} radius="md" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
    </Group>
  );
}
