/**
 * «Entrar con tu cuenta de la empresa» under the sign-in form (decision 0120): once «Usuario» holds an
 * e-mail address whose domain a client signs in with its own provider, or once the server refused the
 * password because the company requires it. Loaded by the sign-in form only when «Usuario» holds an @ or
 * the server asked for it, so the sign-in screen's first load stays within its budget.
 */
import { Button, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { isEmailAddress } from '@portal/shared/domain/email';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { discoverSso, startSso } from '../api/sso';

/** How long the typing pauses before the portal asks about the address. */
const DISCOVER_PAUSE_MS = 400;

interface SsoOfferProps {
  /** What «Usuario» holds, trimmed. */
  correo: string;
  /** The server refused the password: this user's company signs in with its own account only. */
  required: boolean;
}

export default function SsoOffer({ correo, required }: SsoOfferProps) {
  const email = isEmailAddress(correo) ? correo : '';
  const [asked] = useDebouncedValue(email, DISCOVER_PAUSE_MS);
  const [leaving, setLeaving] = useState(false);
  const discovery = useQuery({
    queryKey: ['sso', 'descubrir', asked],
    queryFn: ({ signal }) => discoverSso(asked, signal),
    enabled: asked !== '',
    staleTime: 5 * 60_000,
    // No answer (throttled, offline): no button; the password form works as before.
    retry: false,
  });
  // Back from the provider's page through the browser's history (a page restored as it was): usable again.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);
  // The answer is about what «Usuario» holds now, not an address typed before.
  const answer = asked === email ? discovery.data : undefined;

  if (!email) {
    return required ? (
      <Text size="sm" c="dimmed" ta="center">
        Para entrar con tu cuenta de la empresa, escribe tu correo de trabajo en «Usuario».
      </Text>
    ) : null;
  }
  if (!required && !answer?.sso) return null;
  return (
    <Stack gap={6}>
      {/* After a refused password the refusal above already says so. */}
      {!required && answer?.obligatorio ? (
        <Text size="sm" c="dimmed" ta="center">
          Tu empresa inicia sesión con su propia cuenta.
        </Text>
      ) : null}
      <Button
        variant="default"
        size="md"
        fullWidth
        // On a narrow phone the label takes two lines instead of widening the screen.
        styles={{
          root: { height: 'auto', minHeight: 'var(--button-height)', paddingBlock: 6 },
          label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 },
        }}
        disabled={leaving}
        leftSection={
          leaving ? (
            <Loader size={16} color="currentColor" aria-hidden />
          ) : (
            <IconBuildingSkyscraper size={18} aria-hidden />
          )
        }
        onClick={() => {
          setLeaving(true);
          void startSso(email);
        }}
      >
        Entrar con tu cuenta de la empresa
      </Button>
    </Stack>
  );
}
