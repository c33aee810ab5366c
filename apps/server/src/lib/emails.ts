import type { NotificationKind } from '@portal/shared/domain/notifications';
import type { Email } from './mailer.ts';

/** A button of an e-mail: where it goes, what it says. */
interface Link {
  url: string;
  label: string;
}

/**
 * The e-mails of the product. Never a password (but the administrator's reset, docs/domain.md) or a session
 * token. `link` is the message's button, or its buttons (the first is the main one); the text version
 * gives each address.
 */
function layout(
  title: string,
  paragraphs: string[],
  link?: Link | readonly Link[],
): { text: string; html: string } {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const links: readonly Link[] = link === undefined ? [] : 'url' in link ? [link] : link;
  const text = [
    title,
    '',
    ...paragraphs,
    ...(links.length > 0 ? ['', ...links.map((l) => `${l.label}: ${l.url}`)] : []),
    '',
    'Portal de Compras',
  ].join('\n');
  const button = (l: Link, i: number) =>
    `<a href="${esc(l.url)}" style="${i === 0 ? 'background:#0b7285;color:#fff' : 'border:1px solid #0b7285;color:#0b7285'};padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block;margin:0 8px 8px 0">${esc(l.label)}</a>`;
  const html = `<!doctype html><html lang="es"><body style="font-family:Arial,sans-serif;color:#212529">
<h2 style="color:#0b7285">${esc(title)}</h2>
${paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}
${links.length > 0 ? `<p>${links.map(button).join('')}</p><p style="font-size:12px;color:#868e96">${esc(links[0]!.url)}</p>` : ''}
<p style="font-size:12px;color:#868e96">Portal de Compras</p></body></html>`;
  return { text, html };
}

export function recoveryEmail(to: string, nombre: string, url: string): Email {
  return {
    to,
    subject: 'Recupera tu acceso al Portal de Compras',
    ...layout(
      `Hola, ${nombre}`,
      [
        'Recibimos una solicitud para restablecer tu contraseña.',
        'El enlace funciona una sola vez y vence en 60 minutos. Tu contraseña actual sigue funcionando hasta que lo uses.',
        'Si no fuiste tú, ignora este correo.',
      ],
      { url, label: 'Restablecer contraseña' },
    ),
  };
}

export function passwordChangedEmail(to: string, nombre: string): Email {
  return {
    to,
    subject: 'Tu contraseña del Portal de Compras cambió',
    ...layout(`Hola, ${nombre}`, [
      'Se ha establecido una nueva contraseña para tu cuenta.',
      'Si no fuiste tú, comunícate de inmediato con el administrador del portal.',
    ]),
  };
}

export function welcomeEmail(to: string, nombre: string, usuario: string, url: string): Email {
  return {
    to,
    subject: 'Bienvenido al Portal de Compras',
    ...layout(
      `Hola, ${nombre}`,
      [
        `Se creó tu cuenta con el usuario ${usuario}.`,
        'Usa este enlace para establecer tu contraseña. Funciona una sola vez y vence en 72 horas.',
      ],
      { url, label: 'Establecer contraseña' },
    ),
  };
}

export function temporaryPasswordEmail(
  to: string,
  nombre: string,
  usuario: string,
  password: string,
  url: string,
): Email {
  return {
    to,
    subject: 'Tu contraseña temporal del Portal de Compras',
    ...layout(
      `Hola, ${nombre}`,
      [
        `El administrador restableció la contraseña del usuario ${usuario}.`,
        `Contraseña temporal: ${password}`,
        'Al iniciar sesión deberás cambiarla antes de continuar.',
      ],
      { url, label: 'Iniciar sesión' },
    ),
  };
}

/**
 * An e-mail about an order: its button opens it (`url`, `label`); `actions` are buttons before that one.
 * With `para` (the person and the kind, decision 0114) it is also an item of their bell: the subject, the
 * first paragraph and the button's path.
 */
export function orderEmail(
  to: string,
  nombre: string,
  content: {
    subject: string;
    paragraphs: string[];
    url: string;
    label: string;
    actions?: readonly Link[];
    para?: { userId: number; tipo: NotificationKind };
  },
): Email {
  return {
    to,
    subject: content.subject,
    ...layout(`Hola, ${nombre}`, content.paragraphs, [
      ...(content.actions ?? []),
      { url: content.url, label: content.label },
    ]),
    ...(content.para
      ? {
          aviso: {
            ...content.para,
            texto: content.paragraphs[0] ?? content.subject,
            ruta: pathOf(content.url),
          },
        }
      : {}),
  };
}

/** The path (and query) of one of the portal's addresses: what the bell links to. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

export type TwoFactorEvent = 'activada' | 'desactivada' | 'restablecida' | 'codigos_regenerados';

const TWO_FACTOR_TEXTS: Record<TwoFactorEvent, { subject: string; paragraphs: string[] }> = {
  activada: {
    subject: 'Activaste la verificación en dos pasos',
    paragraphs: [
      'La verificación en dos pasos quedó activa en tu cuenta del Portal de Compras: al iniciar sesión se te pedirá el código de tu aplicación de autenticación.',
      'Guarda tus códigos de respaldo en un lugar seguro; cada uno sirve una sola vez.',
    ],
  },
  desactivada: {
    subject: 'Desactivaste la verificación en dos pasos',
    paragraphs: [
      'La verificación en dos pasos se desactivó en tu cuenta del Portal de Compras; desde ahora basta tu contraseña para iniciar sesión.',
    ],
  },
  restablecida: {
    subject: 'El administrador restableció tu verificación en dos pasos',
    paragraphs: [
      'El administrador del portal desactivó la verificación en dos pasos de tu cuenta y cerró tus sesiones abiertas.',
      'Puedes volver a activarla en la sección Seguridad después de iniciar sesión.',
    ],
  },
  codigos_regenerados: {
    subject: 'Generaste nuevos códigos de respaldo',
    paragraphs: [
      'Se generaron nuevos códigos de respaldo para la verificación en dos pasos de tu cuenta; los anteriores ya no sirven.',
    ],
  },
};

/** A change of the user's second factor. Never a code or the secret. */
export function twoFactorEmail(to: string, nombre: string, event: TwoFactorEvent, url: string): Email {
  const { subject, paragraphs } = TWO_FACTOR_TEXTS[event];
  return {
    to,
    subject,
    ...layout(
      `Hola, ${nombre}`,
      [
        ...paragraphs,
        'Si no reconoces este cambio, comunícate de inmediato con el administrador del portal.',
      ],
      { url, label: 'Ir al portal' },
    ),
  };
}
