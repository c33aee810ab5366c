import '@mantine/core/styles/Code.css';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A secret the server shows once (an integration token, a webhook's signing secret, a SCIM token):
 * monospace, selectable, with a copy button and the warning that it will not be shown again.
 */
export function ShownOnce({
  title,
  value,
  hint = 'Cópialo ahora y guárdalo en un lugar seguro: no se volverá a mostrar.',
  onClose,
}: {
  title: string;
  value: string;
  hint?: string;
  onClose: () => void;
}) {
  return (
    <Alert color="yellow" title={title} withCloseButton closeButtonLabel="Ocultar" onClose={onClose}>
      <Stack gap="xs">
        <Text size="sm">{hint}</Text>
        {/* On a phone the button goes under the value rather than being cut off beside it. */}
        <Group gap="xs">
          <Code fz="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="valor-una-vez">
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button
                size="compact-sm"
                variant="light"
                color={copied ? 'teal' : 'blue'}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
              >
                {copied ? 'Copiado' : 'Copiar'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
