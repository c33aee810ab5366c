/** The client form's brand preview: the sidebar the client's users will see, in its colours with its logo. */
import { Box, Group, Stack, Text } from '@mantine/core';
import { IconBuildingWarehouse, IconLayoutGrid, IconShoppingCart } from '@tabler/icons-react';
import { sidebarPalette } from '../../../components/layouts/brand-colors';

/** What the client's users will see: the sidebar in the client's gradient with its logo. */
export function BrandPreview({
  nombre,
  color,
  color2,
  logo,
}: {
  nombre: string;
  color: string;
  color2: string;
  logo: string | null;
}) {
  const palette = sidebarPalette(color, color2);
  const fg = palette.tone === 'light' ? '#ffffff' : '#1a1b1e';
  const muted = palette.tone === 'light' ? 'rgba(255,255,255,0.22)' : 'rgba(0,0,0,0.1)';
  return (
    <Box
      role="img"
      aria-label={`Vista previa del menú con los colores de ${nombre || 'el cliente'}`}
      data-testid="vista-previa-marca"
      style={{ background: palette.background, color: fg, borderRadius: 'var(--mantine-radius-md)' }}
      p="md"
    >
      <Group gap="md" wrap="nowrap" align="stretch">
        <Box
          bg="white"
          w={120}
          h={64}
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            flexShrink: 0,
            boxShadow: '0 6px 18px rgba(0,0,0,0.12)',
          }}
        >
          {logo ? (
            <img
              src={logo}
              alt=""
              style={{ maxWidth: '100%', maxHeight: 52, objectFit: 'contain', padding: 6 }}
            />
          ) : (
            <IconBuildingWarehouse size={28} stroke={1.5} color="#868e96" aria-hidden />
          )}
        </Box>
        <Stack gap={6} justify="center" miw={0} style={{ flex: 1 }}>
          <Text fw={700} size="sm" truncate c={fg}>
            {nombre.trim() || 'Nombre del cliente'}
          </Text>
          <Group gap={6} px={8} py={4} style={{ background: muted, borderRadius: 6 }} wrap="nowrap">
            <IconLayoutGrid size={14} aria-hidden />
            <Text size="xs" c={fg}>
              Todos los productos
            </Text>
          </Group>
          <Group gap={6} px={8} wrap="nowrap">
            <IconShoppingCart size={14} aria-hidden />
            <Text size="xs" c={fg}>
              Carrito
            </Text>
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}
