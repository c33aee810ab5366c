import { AppShell, Box, Loader, Progress } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';
import { Sidebar } from './sidebar';

/** Sidebar, navbar, routed content and footer (spec §2). On phones the sidebar folds into the burger. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigation = useNavigation();

  return (
    <AppShell
      header={{ height: { base: 112, sm: 64 } }}
      navbar={{ width: 272, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
      bg="var(--mantine-color-gray-0)"
    >
      <Header navOpened={opened} onToggleNav={toggle} />
      <Sidebar onNavigate={close} />
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        {navigation.state === 'loading' ? (
          <Progress
            value={100}
            animated
            size="xs"
            radius={0}
            pos="fixed"
            top={0}
            left={0}
            right={0}
            style={{ zIndex: 1000 }}
            aria-label="Cargando"
          />
        ) : null}
        <Box component="section" flex={1} maw={1280} w="100%" mx="auto">
          <Suspense fallback={<Loader m="xl" aria-label="Cargando" />}>
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
