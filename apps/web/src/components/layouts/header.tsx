import { ActionIcon, AppShell, Burger, Group, Indicator, TextInput, Title, Tooltip } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { IconSearch, IconShoppingCart, IconX } from '@tabler/icons-react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { GlobalSearch } from '../../features/admin/support/global-search';
import { useSession } from '../../lib/session';
import { panelTitleFor } from './nav-links';
import { ProfileMenu } from './profile-menu';

interface HeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

/** Rol 1 searches products: from a page without the catalogue, typing leads to all products. */
function searchesProducts(rol: number, pathname: string): boolean {
  return (
    rol === ROLES.usuario &&
    !pathname.startsWith('/usuario/principal') &&
    !pathname.startsWith('/usuario/categoria/')
  );
}

/**
 * The search text lives in the URL (`?q=`), so each page can filter with it and links can share it. The
 * administrator's is the support search over users and orders instead.
 */
function SearchBox() {
  const { user } = useSession();
  if (user.rol === ROLES.administrador) return <GlobalSearch />;
  return <PageSearchBox />;
}

function PageSearchBox() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const value = params.get('q') ?? '';
  const setQuery = (q: string) => {
    if (q && searchesProducts(user.rol, pathname)) {
      void navigate(`/usuario/principal?${new URLSearchParams({ q })}`);
      return;
    }
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  };
  return (
    <TextInput
      type="search"
      placeholder="Buscar..."
      aria-label="Buscar"
      value={value}
      onChange={(e) => setQuery(e.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        value ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label="Limpiar búsqueda"
            onClick={() => setQuery('')}
          >
            <IconX size={14} />
          </ActionIcon>
        ) : null
      }
      radius="xl"
      w="100%"
    />
  );
}

export function Header({ navOpened, onToggleNav }: HeaderProps) {
  const { user, comprador } = useSession();
  const units = comprador?.presupuesto.productos_totales ?? 0;
  return (
    <AppShell.Header px={{ base: 'sm', sm: 'lg' }}>
      <Group h={64} gap="sm" wrap="nowrap" justify="space-between">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Burger
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label={navOpened ? 'Cerrar menú' : 'Abrir menú'}
          />
          <Title order={2} fz={{ base: 18, sm: 20 }} fw={700} style={{ whiteSpace: 'nowrap' }}>
            {panelTitleFor(user.rol)}
          </Title>
        </Group>
        <Group visibleFrom="sm" flex={1} maw={480} mx="md">
          <SearchBox />
        </Group>
        <Group gap="xs" wrap="nowrap">
          {user.rol === ROLES.usuario ? (
            <Tooltip label={units > 0 ? `Carrito (${units})` : 'Carrito'}>
              <Indicator label={units} size={18} disabled={units === 0} color="red" offset={4} inline>
                <ActionIcon
                  component={Link}
                  to="/usuario/carrito"
                  variant="light"
                  size="lg"
                  radius="xl"
                  aria-label={
                    units > 0 ? `Carrito, ${units} ${units === 1 ? 'artículo' : 'artículos'}` : 'Carrito'
                  }
                >
                  <IconShoppingCart size={20} />
                </ActionIcon>
              </Indicator>
            </Tooltip>
          ) : null}
          <ProfileMenu />
        </Group>
      </Group>
      <Group hiddenFrom="sm" pb="sm">
        <SearchBox />
      </Group>
    </AppShell.Header>
  );
}
