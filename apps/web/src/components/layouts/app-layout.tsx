import { AppShell, Box } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ClientPermission } from '@portal/shared/domain/client-admin';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { ensureOverlays } from '../ui/overlay-host';
import { Spinner } from '../ui/spinner';
import { Footer } from './footer';
import { Header, useHeaderSearch } from './header';
import { Sidebar } from './sidebar';

/**
 * Sidebar, navbar, routed content and footer. On phones the sidebar folds into the burger. The header's
 * support search (administrators), notifications' bell and the profile menu's panels are features', so app/
 * passes them in, and a client administrator's permissions (the sidebar's links depend on them).
 */
export function AppLayout({
  supportSearch,
  profileMenu,
  bell,
  clientPermissions,
}: {
  supportSearch: ReactNode;
  profileMenu: ReactNode;
  bell: ReactNode;
  clientPermissions?: readonly ClientPermission[];
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // On phones the header's search box takes a second row, on the screens that have one.
  const headerSearch = useHeaderSearch() !== null;
  // The signed-in screens open dialogs and notifications often: load them as the shell mounts.
  useEffect(() => void ensureOverlays(), []);

  return (
    <AppShell
      header={{ height: { base: headerSearch ? 112 : 64, sm: 64 } }}
      navbar={{ width: 272, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
      bg="var(--mantine-color-gray-0)"
    >
      <Header
        navOpened={opened}
        onToggleNav={toggle}
        supportSearch={supportSearch}
        profileMenu={profileMenu}
        bell={bell}
      />
      <Sidebar onNavigate={close} clientPermissions={clientPermissions} />
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        {/*
         * At least one screen tall: the footer starts below the fold, so a page that grows as its data
         * arrives never moves it on screen (layout shift, issue 37).
         */}
        <Box
          component="section"
          flex={1}
          maw={1280}
          w="100%"
          mx="auto"
          mih="calc(100dvh - var(--app-shell-header-offset, 0rem))"
        >
          <Suspense fallback={<Spinner m="xl" label="Cargando" />}>
            <Outlet />
          </Suspense>
        </Box>
        <Box maw={1280} w="100%" mx="auto">
          <Footer />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

export default AppLayout;
