import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A read-only value an administrator pastes elsewhere (an address to register at an identity provider) with
 * «Copiar». `label` is feminine singular («Dirección…», «URL…»): the button says «Copiada» once copied.
 */
export function CopyField({
  label,
  description,
  value,
}: {
  label: string;
  description: string;
  value: string;
}) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        description={description}
        value={value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
        onFocus={(event) => event.currentTarget.select()}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            color={copied ? 'teal' : 'blue'}
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            onClick={copy}
            aria-label={
              copied ? `${label} copiada` : `Copiar ${label.charAt(0).toLowerCase()}${label.slice(1)}`
            }
          >
            {copied ? 'Copiada' : 'Copiar'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
