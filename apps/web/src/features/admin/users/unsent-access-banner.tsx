/**
 * "N correos de acceso sin enviar": welcome e-mails still unsent 10 minutes after they were written, or no
 * mail server configured (decision 0097). Names the clients, each a link to its users, where "Reenviar
 * acceso" sends a fresh link to the chosen ones. Nothing shows while all is well.
 */
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import type { UnsentAccessResponse } from '@portal/shared/schemas/users';
import { IconMailExclamation } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { withClient } from '../../../lib/chosen-client';
import { useUnsentAccess } from './api';

/**
 * The banner, then the page's content below it: both appear once the banner's answer is in (or failed), so
 * a banner that arrives late never pushes down what is already on screen (no layout shift, issue 37).
 */
export function WithUnsentAccessBanner({ children }: { children: ReactNode }) {
  const query = useUnsentAccess();
  if (query.isPending) return null;
  return (
    <>
      <UnsentAccessBanner data={query.data} />
      {children}
    </>
  );
}

function UnsentAccessBanner({ data }: { data: UnsentAccessResponse | undefined }) {
  if (!data || (data.pendientes === 0 && !data.sin_smtp)) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconMailExclamation size={18} aria-hidden />}
      title={MSG.accesosSinEnviar(data.pendientes)}
      data-testid="aviso-accesos-sin-enviar"
    >
      <Text size="sm">
        {data.sin_smtp
          ? 'No hay un servidor de correo configurado: los correos de acceso se registran pero no se envían. '
          : 'Los usuarios no han recibido el enlace para establecer su contraseña. '}
        Elige a los usuarios y usa «Reenviar acceso».
      </Text>
      {data.clientes.length ? (
        <Group gap="md" mt={6}>
          {data.clientes.map((c) => (
            <Anchor key={c.id} component={Link} to={withClient('/administrador/usuarios', c.id)} size="sm">
              {c.nombre} ({c.pendientes})
            </Anchor>
          ))}
        </Group>
      ) : null}
    </Alert>
  );
}
