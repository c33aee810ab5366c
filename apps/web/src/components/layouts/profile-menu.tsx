import { Box, Center, Group, Menu, Modal, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ROLES } from '@portal/shared/domain/roles';
import {
  IconBellCog,
  IconChevronDown,
  IconKey,
  IconLogout,
  IconPlaneDeparture,
  IconShieldLock,
} from '@tabler/icons-react';
import { type ReactNode, Suspense } from 'react';
import { useSession } from '../../lib/session';
import { IdenticonAvatar } from '../ui/identicon-avatar';
import { Spinner } from '../ui/spinner';

function PanelLoading() {
  return (
    <Center py="xl">
      <Spinner label="Cargando" />
    </Center>
  );
}

/** The dialog of a feature's panel: kept open on an outside click, a spinner while a lazy panel loads. */
function PanelDialog({
  opened,
  onClose,
  title,
  size,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  size: number;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      radius="md"
      size={size}
      closeOnClickOutside={false}
    >
      <Suspense fallback={<PanelLoading />}>{children}</Suspense>
    </Modal>
  );
}

/**
 * What each entry opens: the features' panels, given by app/ (components never import features). A panel
 * is rendered only while its dialog is open, so a lazy one loads when opened.
 */
interface ProfileMenuProps {
  /** "Cambiar contraseña" (rol 1): the form, told how to close its dialog. */
  changePassword: (close: () => void) => ReactNode;
  /** "Seguridad" (two-factor sign-in, roles 2-4). */
  security: ReactNode;
  /** "Fuera de oficina" (roles 2-3, decision 0053): the own delegation, told how to close its dialog. */
  away: (close: () => void) => ReactNode;
  /**
   * "Notificaciones" (decision 0114): how each kind of notice arrives, told how to close; absent for a role
   * without notices (no such entry).
   */
  notifications?: (close: () => void) => ReactNode;
  /** "Cerrar sesión", disabled while `signingOut`. */
  onSignOut: () => void;
  signingOut: boolean;
}

export function ProfileMenu({
  changePassword,
  security: securityPanel,
  away: awayPanel,
  notifications: notificationsPanel,
  onSignOut,
  signingOut,
}: ProfileMenuProps) {
  const { user } = useSession();
  const [dialogOpened, dialog] = useDisclosure(false);
  const [securityOpened, security] = useDisclosure(false);
  const [awayOpened, away] = useDisclosure(false);
  const [notificationsOpened, notifications] = useDisclosure(false);
  const authorizer = user.rol === ROLES.autorizador || user.rol === ROLES.superAutorizador;

  return (
    <>
      <Menu
        position="bottom-end"
        width={240}
        shadow="md"
        radius="md"
        withinPortal
        // Mantine's initial-focus placeholder is a focusable presentational element inside role="menu", which
        // axe refuses (aria-required-children); without it the first item takes the focus.
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          {/* Named by its content, so the visible name and user are part of it (phones only see the avatar). */}
          <UnstyledButton data-testid="profile-menu" p={4}>
            <Group gap="xs" wrap="nowrap">
              <IdenticonAvatar value={user.usuario} radius="xl" size={36} px={36} />
              <VisuallyHidden>Menú de perfil</VisuallyHidden>
              <VisuallyHidden hiddenFrom="md">de {user.nombre}</VisuallyHidden>
              <Box visibleFrom="md" maw={180}>
                <Text size="sm" fw={600} truncate>
                  {user.nombre}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {user.usuario}
                </Text>
              </Box>
              <IconChevronDown size={16} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
              {user.nombre}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {user.email || user.usuario}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          {user.rol === ROLES.usuario ? (
            <Menu.Item leftSection={<IconKey size={16} />} onClick={dialog.open}>
              Cambiar contraseña
            </Menu.Item>
          ) : (
            <Menu.Item leftSection={<IconShieldLock size={16} />} onClick={security.open}>
              Seguridad
            </Menu.Item>
          )}
          {authorizer ? (
            <Menu.Item leftSection={<IconPlaneDeparture size={16} />} onClick={away.open}>
              Fuera de oficina
            </Menu.Item>
          ) : null}
          {notificationsPanel ? (
            <Menu.Item leftSection={<IconBellCog size={16} />} onClick={notifications.open}>
              Notificaciones
            </Menu.Item>
          ) : null}
          <Menu.Item
            // Red 9: 5.3:1 on white (red 6 was 3.3:1, under the 4.5:1 of normal text).
            color="red.9"
            leftSection={<IconLogout size={16} />}
            onClick={onSignOut}
            disabled={signingOut}
          >
            Cerrar sesión
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      <Modal opened={dialogOpened} onClose={dialog.close} title="Cambiar contraseña" centered radius="md">
        {changePassword(dialog.close)}
      </Modal>

      {/* An outside click must not throw away a half-done activation, codes not yet saved or a form. */}
      <PanelDialog opened={securityOpened} onClose={security.close} title="Seguridad" size={480}>
        {securityPanel}
      </PanelDialog>

      {authorizer ? (
        <PanelDialog opened={awayOpened} onClose={away.close} title="Fuera de oficina" size={520}>
          {awayPanel(away.close)}
        </PanelDialog>
      ) : null}

      {notificationsPanel ? (
        <PanelDialog
          opened={notificationsOpened}
          onClose={notifications.close}
          title="Notificaciones"
          size={480}
        >
          {notificationsPanel(notifications.close)}
        </PanelDialog>
      ) : null}
    </>
  );
}
