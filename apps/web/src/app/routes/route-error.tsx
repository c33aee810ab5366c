import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMoodSad } from '@tabler/icons-react';
import { Component, type ReactNode } from 'react';

/** Shown when a screen fails to load (for instance after a deploy replaced its chunk). */
export function RouteError() {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="md" maw={420} ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="orange" aria-hidden>
          <IconMoodSad size={36} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          Algo salió mal
        </Title>
        <Text c="dimmed">No pudimos mostrar esta pantalla. Recarga la página o vuelve al inicio.</Text>
        <Button onClick={() => window.location.assign('/')}>Volver al inicio</Button>
      </Stack>
    </Center>
  );
}

/** Catches a screen that throws while rendering or whose chunk cannot be loaded. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
