import { Anchor, Text, type TextProps } from '@mantine/core';
import { trackingLink } from '@portal/shared/domain/fulfilment';

/**
 * A guía as every order screen shows it (decision 0094): a link to the carrier's tracking page in a new
 * tab when the carrier is one the portal knows, else plain text.
 */
export function GuiaLink({
  guia,
  paqueteria,
  ...props
}: { guia: string; paqueteria?: string | null } & Omit<TextProps, 'children'>) {
  const link = trackingLink(guia, paqueteria);
  if (!link.url)
    return (
      <Text span inherit {...props}>
        {link.texto}
      </Text>
    );
  return (
    <Anchor
      href={link.url}
      target="_blank"
      rel="noopener noreferrer"
      inherit
      {...props}
      aria-label={`${link.texto} (rastreo, se abre en otra pestaña)`}
      data-testid="guia-rastreo"
    >
      {link.texto}
    </Anchor>
  );
}
