import {
  Alert,
  Button,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { saveBlob } from '../../../lib/download';
import { formatDateTime } from '../../../lib/format';

interface BackupCodesProps {
  /** What just happened (activation, regeneration). */
  title: string;
  /** The new single-use codes (`xxxx-xxxx`), as the server answered them once. */
  codes: string[];
  usuario: string;
  /** 'Listo': the codes are saved; they will not be shown again. */
  onDone: () => void;
}

/** The text kept by 'Copiar' and 'Descargar .txt'. */
function codesText(codes: string[], usuario: string): string {
  return [
    `Portal de Compras: códigos de respaldo de ${usuario}`,
    `Generados el ${formatDateTime(new Date())}.`,
    'Cada código sirve una sola vez para entrar cuando no tengas tu aplicación de autenticación.',
    '',
    ...codes.map((code, i) => `${String(i + 1).padStart(2, ' ')}. ${code}`),
    '',
  ].join('\n');
}

/** The backup codes of an enrolment or a regeneration: shown once, to copy, download or write down. */
export function BackupCodes({ title, codes, usuario, onDone }: BackupCodesProps) {
  const text = codesText(codes, usuario);
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon color="teal" variant="light" radius="xl" size="lg" aria-hidden>
          <IconCircleCheck size={20} />
        </ThemeIcon>
        <Title order={3} fz="md">
          {title}
        </Title>
      </Group>
      <Alert
        color="orange"
        icon={<IconAlertTriangle />}
        radius="md"
        title="Guarda tus códigos de respaldo ahora"
      >
        No se volverán a mostrar. Con cada uno puedes entrar una vez si no tienes tu teléfono a la mano;
        guárdalos en un lugar seguro.
      </Alert>
      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)">
        <SimpleGrid
          cols={2}
          spacing="xs"
          verticalSpacing={6}
          component="ol"
          m={0}
          p={0}
          aria-label="Códigos de respaldo"
          data-testid="codigos-respaldo"
          style={{ listStyle: 'none' }}
        >
          {codes.map((code) => (
            <Text
              key={code}
              component="li"
              ff="monospace"
              fw={600}
              fz="md"
              ta="center"
              style={{ letterSpacing: '0.08em' }}
            >
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group grow gap="sm">
        <CopyButton value={text} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? 'Copiados' : 'Copiar'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() =>
            saveBlob(
              new Blob([text], { type: 'text/plain;charset=utf-8' }),
              `codigos-respaldo-${usuario}.txt`,
            )
          }
        >
          Descargar .txt
        </Button>
      </Group>
      <Button onClick={onDone} fullWidth>
        Listo
      </Button>
    </Stack>
  );
}
