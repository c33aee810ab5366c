import '@mantine/core/styles/Indicator.css';
import { ActionIcon, AppShell, Burger, Indicator, Title, Tooltip } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { IconShoppingCart } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSession } from '../../lib/session';
import { ListSearch } from '../ui/list-search';
import classes from './header.module.css';
import { panelTitleFor } from './nav-links';

interface HeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
  /** The administrator's support search (a feature, given by app/: components never import features). */
  supportSearch: ReactNode;
  /** The profile menu with the features' panels (layouts/profile-menu.tsx, filled by app/). */
  profileMenu: ReactNode;
  /** The notifications' bell (every role; a feature, given by app/). */
  bell: ReactNode;
}

/** The catalogue's own pages, where the page's 'Buscar un producto...' box is the search. */
function onCatalogue(pathname: string): boolean {
  return pathname.startsWith('/usuario/principal') || pathname.startsWith('/usuario/categoria/');
}

/**
 * One search box per screen (docs/decisions/0065): the administrator's header box is the support search over
 * users and orders; the buyer's leads to the catalogue from the pages without it; the authorizers' lists
 * have their own boxes, so their header has none.
 */
export function useHeaderSearch(): 'soporte' | 'productos' | null {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (user.rol === ROLES.administrador) return 'soporte';
  if (user.rol === ROLES.usuario && !onCatalogue(pathname)) return 'productos';
  return null;
}

function SearchBox({ supportSearch }: { supportSearch: ReactNode }) {
  const search = useHeaderSearch();
  if (search === 'soporte') return supportSearch;
  if (search === 'productos') return <ProductSearch />;
  return null;
}

/** 'Buscar...' away from the catalogue: Enter opens all products searched by the text. */
function ProductSearch() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = value.trim();
    void navigate(q ? `/usuario/principal?${new URLSearchParams({ q })}` : '/usuario/principal');
  };
  return (
    <search style={{ width: '100%' }}>
      <form onSubmit={submit}>
        <ListSearch
          placeholder="Buscar..."
          aria-label="Buscar"
          value={value}
          onChange={setValue}
          radius="xl"
          w="100%"
        />
      </form>
    </search>
  );
}

export function Header({ navOpened, onToggleNav, supportSearch, profileMenu, bell }: HeaderProps) {
  const { user, comprador } = useSession();
  const hasSearch = useHeaderSearch() !== null;
  const units = comprador?.presupuesto.productos_totales ?? 0;
  return (
    <AppShell.Header px={{ base: 'sm', sm: 'lg' }}>
      <div className={classes.row}>
        <div className={classes.start}>
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
        </div>
        {hasSearch ? (
          <div className={classes.search}>
            <SearchBox supportSearch={supportSearch} />
          </div>
        ) : null}
        <div className={classes.actions}>
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
          {bell}
          {profileMenu}
        </div>
      </div>
    </AppShell.Header>
  );
}
