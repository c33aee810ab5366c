import { AppShell, Box, NavLink, ScrollArea, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ClientPermission } from '@portal/shared/domain/client-admin';
import { isRol, ROLE_NAMES } from '@portal/shared/domain/roles';
import {
  IconAddressBook,
  IconArrowBigUpLines,
  IconBuildingFactory2,
  IconBuildingStore,
  IconBuildingWarehouse,
  IconCalendarWeek,
  IconChartBar,
  IconClipboardList,
  IconCreditCard,
  IconFileDownload,
  IconHistory,
  IconLayoutGrid,
  IconListCheck,
  IconListDetails,
  IconMapPin,
  IconMessageReport,
  IconPackageImport,
  IconPackages,
  IconPlugConnected,
  IconScale,
  IconShoppingCart,
  IconTextPlus,
  IconTruckDelivery,
  IconUsers,
} from '@tabler/icons-react';
import { type ComponentType, Fragment, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useRememberedClient } from '../../lib/chosen-client';
import { useSession } from '../../lib/session';
import { CategoryIcon } from '../ui/category-icon';
import { sidebarPalette } from './brand-colors';
import {
  type CategoryNavItem,
  categoryNavItems,
  downloadsFor,
  isActive,
  type NavIcon,
  navItemsFor,
} from './nav-links';
import classes from './sidebar.module.css';

const ICONS: Record<NavIcon, ComponentType<{ size?: number; stroke?: number }>> = {
  productos: IconLayoutGrid,
  historial: IconHistory,
  listas: IconListCheck,
  'pedido-rapido': IconTextPlus,
  carrito: IconShoppingCart,
  pedidos: IconClipboardList,
  clientes: IconBuildingStore,
  semanas: IconCalendarWeek,
  inventario: IconPackages,
  usuarios: IconUsers,
  logs: IconListDetails,
  integraciones: IconPlugConnected,
  tablero: IconChartBar,
  surtido: IconTruckDelivery,
  reclamos: IconMessageReport,
  reglas: IconScale,
  personal: IconAddressBook,
  areas: IconBuildingFactory2,
  ampliaciones: IconArrowBigUpLines,
  direcciones: IconMapPin,
  recepcion: IconPackageImport,
  credito: IconCreditCard,
};

interface SidebarProps {
  /** Called after a link is followed (closes the sidebar on phones). */
  onNavigate: () => void;
  /** A client administrator's: what its client allows it to change (its links depend on it). */
  clientPermissions?: readonly ClientPermission[];
}

export function Sidebar({ onNavigate, clientPermissions }: SidebarProps) {
  const session = useSession();
  const { user } = session;
  const { pathname } = useLocation();
  const cliente = user.cliente;
  const palette = sidebarPalette(cliente?.color, cliente?.color2);
  const chosenClient = useRememberedClient();
  const items = navItemsFor(user.rol, session.comprador, chosenClient, clientPermissions, user.receptor);
  const categories = categoryNavItems(session.comprador);
  // A missing or broken logo falls back to the neutral mark with the client's name.
  const [logoFailed, setLogoFailed] = useState(false);
  const downloads = downloadsFor(session);

  return (
    <AppShell.Navbar
      className={`${classes.sidebar} ${palette.tone === 'light' ? classes.light : classes.dark}`}
      style={{ background: palette.background }}
      aria-label="Menú principal"
    >
      <AppShell.Section p="md" pb="sm">
        {cliente?.imagen && !logoFailed ? (
          <Box className={classes.logoBox}>
            <img
              className={classes.logo}
              src={cliente.imagen}
              alt={`Logotipo de ${cliente.nombre}`}
              onError={() => setLogoFailed(true)}
            />
          </Box>
        ) : (
          <Box className={classes.mark}>
            <Box className={classes.markIcon} aria-hidden>
              <IconBuildingWarehouse size={26} stroke={1.6} />
            </Box>
            <Box>
              <Text fw={800} size="lg" lh={1.1}>
                Portal de Compras
              </Text>
              <Text size="xs" className={classes.muted}>
                {cliente ? cliente.nombre : 'Administración'}
              </Text>
            </Box>
          </Box>
        )}
        <Box mt="md" px={4}>
          <Text size="xs" className={classes.muted}>
            {isRol(user.rol) ? ROLE_NAMES[user.rol] : 'Sesión'}
            {cliente?.imagen && !logoFailed ? ` · ${cliente.nombre}` : ''}
          </Text>
          <Text fw={700} size="md" lineClamp={2} data-testid="sidebar-user">
            {user.nombre}
          </Text>
        </Box>
      </AppShell.Section>

      <Box className={classes.divider} mx="md" />

      <AppShell.Section grow component={ScrollArea} px="sm" py="md">
        <nav aria-label="Secciones">
          <Stack gap={4}>
            {items.map((item) => {
              const Icon = ICONS[item.icon];
              const active = isActive(pathname, item.to);
              return (
                <Fragment key={item.to}>
                  <NavLink
                    component={Link}
                    to={item.to}
                    label={item.label}
                    leftSection={<Icon size={20} stroke={1.7} />}
                    rightSection={
                      item.count ? (
                        <span className={classes.count} data-testid="sidebar-carrito-unidades">
                          {item.count}
                          <VisuallyHidden>{item.count === 1 ? ' artículo' : ' artículos'}</VisuallyHidden>
                        </span>
                      ) : undefined
                    }
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    className={classes.link}
                    onClick={onNavigate}
                  />
                  {item.icon === 'productos' && categories.length > 0 ? (
                    <CategoryLinks items={categories} pathname={pathname} onNavigate={onNavigate} />
                  ) : null}
                </Fragment>
              );
            })}
          </Stack>
        </nav>

        {downloads.length > 0 ? (
          <Box mt="lg">
            <Text className={classes.sectionLabel} component="h2">
              Documentos
            </Text>
            <Stack gap={4}>
              {downloads.map((d) => (
                <NavLink
                  key={d.label}
                  component="a"
                  href={d.href}
                  target="_blank"
                  rel="noopener"
                  download
                  label={d.label}
                  description="PDF"
                  leftSection={<IconFileDownload size={20} stroke={1.7} />}
                  className={classes.link}
                  styles={{ description: { color: 'inherit', opacity: 0.75 } }}
                />
              ))}
            </Stack>
          </Box>
        ) : null}
      </AppShell.Section>
    </AppShell.Navbar>
  );
}

function CategoryLinks({
  items,
  pathname,
  onNavigate,
}: {
  items: CategoryNavItem[];
  pathname: string;
  onNavigate: () => void;
}) {
  return (
    <Box my={6}>
      <Text className={classes.sectionLabel} component="h2" mt={4}>
        Categorías
      </Text>
      <Stack gap={2}>
        {items.map((c) => {
          const active = isActive(pathname, c.to);
          return (
            <NavLink
              key={c.to}
              component={Link}
              to={c.to}
              label={c.label}
              description={
                c.budget ? (
                  <>
                    <span data-testid="sidebar-presupuesto-categoria">{c.budget.text}</span>
                    {c.budget.percent !== null ? (
                      <span className={classes.budgetTrack} aria-hidden>
                        <span className={classes.budgetBar} style={{ width: `${c.budget.percent}%` }} />
                      </span>
                    ) : null}
                  </>
                ) : undefined
              }
              leftSection={<CategoryIcon name={c.icono} size={18} />}
              active={active}
              aria-current={active ? 'page' : undefined}
              className={`${classes.link} ${classes.categoryLink}`}
              styles={{ description: { color: 'inherit', opacity: 0.8 } }}
              onClick={onNavigate}
            />
          );
        })}
      </Stack>
    </Box>
  );
}
