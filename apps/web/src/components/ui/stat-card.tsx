import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  /** An icon of 18 px; shown in a light tile of `color` (red when `danger`). */
  icon: ReactNode;
  color: string;
  caption?: ReactNode;
  /** The value is bad news (a budget overrun): value and icon in red. */
  danger?: boolean;
  /** Under the value, before the caption (a progress bar). */
  children?: ReactNode;
  /** A card that asks for attention: an amber (`warning`) or red (`danger`) border and tint. */
  tone?: 'warning' | 'danger';
}

const TONES = { warning: 'yellow', danger: 'red' } as const;

/** A figure with its label and icon, e.g. a budget card of the shopper or of the order review. */
export function StatCard({
  label,
  value,
  icon,
  color,
  caption,
  danger = false,
  children,
  tone,
}: StatCardProps) {
  const toneColor = tone ? TONES[tone] : null;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      role="group"
      aria-label={label}
      bg={toneColor ? `${toneColor}.0` : undefined}
      style={toneColor ? { borderColor: `var(--mantine-color-${toneColor}-6)`, borderWidth: 2 } : undefined}
      data-tone={tone}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed" fw={700} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
          {label}
        </Text>
        <ThemeIcon
          color={danger ? 'red' : (toneColor ?? color)}
          variant="light"
          radius="md"
          size="md"
          aria-hidden
        >
          {icon}
        </ThemeIcon>
      </Group>
      <Text
        fw={700}
        fz={{ base: 17, sm: 22 }}
        lh={1.2}
        mt={4}
        c={danger ? 'red' : undefined}
        style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
        data-testid="valor"
      >
        {value}
      </Text>
      {children}
      {caption ? (
        <Text size="xs" c="dimmed" mt={6}>
          {caption}
        </Text>
      ) : null}
    </Paper>
  );
}
