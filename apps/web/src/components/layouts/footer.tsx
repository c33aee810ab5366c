import { Anchor, Box, Group, Text } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { currentYear } from '../../lib/format';
import { useSession } from '../../lib/session';

export function Footer() {
  const { soporte } = useSession();
  return (
    <Box
      component="footer"
      role="contentinfo"
      mt="xl"
      pt="md"
      pb="lg"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          © {currentYear()} Portal de Compras. Todos los derechos reservados.
        </Text>
        {soporte.length > 0 ? (
          <Group gap={6} wrap="wrap">
            <IconPhone size={16} aria-hidden color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              Soporte:
            </Text>
            {soporte.map((phone, i) => (
              <Text size="sm" key={phone} span>
                <Anchor href={`tel:${phone.replace(/[^\d+]/g, '')}`} size="sm">
                  {phone}
                </Anchor>
                {i < soporte.length - 1 ? (
                  <Text span c="dimmed">
                    {' · '}
                  </Text>
                ) : null}
              </Text>
            ))}
          </Group>
        ) : null}
      </Group>
    </Box>
  );
}
