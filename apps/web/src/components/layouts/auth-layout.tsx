import { Box, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingWarehouse, IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import classes from './auth-layout.module.css';

const NAV = [
  { to: '/login', label: 'Iniciar Sesión' },
  { to: '/recuperar-acceso', label: 'Recuperar Contraseña' },
] as const;

function BrandMark({ inverted = false }: { inverted?: boolean }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <ThemeIcon size={44} radius="md" variant={inverted ? 'white' : 'gradient'} aria-hidden>
        <IconBuildingWarehouse size={26} stroke={1.6} />
      </ThemeIcon>
      <Box>
        <Text fw={800} size="xl" lh={1.1} c={inverted ? 'white' : undefined}>
          Portal de Compras
        </Text>
        <Text size="sm" c={inverted ? 'rgba(255,255,255,0.8)' : 'dimmed'}>
          Pedidos y autorizaciones
        </Text>
      </Box>
    </Group>
  );
}

/** The public screens: a brand panel (wide screens) and the form card with the auth navigation. */
interface AuthLayoutProps {
  /** The public navigation ('Iniciar Sesión', 'Recuperar Contraseña'); off for the forced change. */
  withNav?: boolean;
  /** Content instead of the routed outlet. */
  children?: ReactNode;
}

export function AuthLayout({ withNav = true, children }: AuthLayoutProps) {
  const { pathname } = useLocation();
  return (
    <Box className={classes.root}>
      <Box className={classes.brand} component="aside" aria-label="Portal de Compras">
        <Box className={classes.brandShape} aria-hidden />
        <BrandMark inverted />
        <Stack gap="lg" maw={420} style={{ position: 'relative' }}>
          <Title order={2} c="white" fz={32} lh={1.2}>
            Las compras de tu empresa, en un solo lugar.
          </Title>
          <List
            spacing="sm"
            c="rgba(255,255,255,0.9)"
            icon={
              <ThemeIcon size={22} radius="xl" color="rgba(255,255,255,0.2)" aria-hidden>
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            <List.Item>Tu catálogo asignado y tu presupuesto del mes.</List.Item>
            <List.Item>Pedidos revisados y autorizados en línea.</List.Item>
            <List.Item>Historial y reportes siempre a la mano.</List.Item>
          </List>
        </Stack>
        <Text size="xs" c="rgba(255,255,255,0.7)">
          © {new Date().getFullYear()} Portal de Compras. Todos los derechos reservados.
        </Text>
      </Box>

      <Box className={classes.panel} component="main">
        <Box className={classes.card}>
          <Box className={classes.mobileBrand}>
            <BrandMark />
          </Box>
          <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 32 }}>
            {withNav ? (
              <nav aria-label="Acceso" className={classes.authNav}>
                {NAV.map((item) => (
                  <Link
                    key={item.to}
                    to={item.to}
                    className={classes.authNavLink}
                    aria-current={pathname === item.to ? 'page' : undefined}
                  >
                    {item.label}
                  </Link>
                ))}
              </nav>
            ) : null}
            {children ?? <Outlet />}
          </Paper>
        </Box>
      </Box>
    </Box>
  );
}

export default AuthLayout;
