import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface ListSearchProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
}

/** A list's search box: a search field with its icon and 'Limpiar búsqueda' once something is typed. */
export function ListSearch({ value, onChange, ...props }: ListSearchProps) {
  return (
    <TextInput
      type="search"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        value ? <CloseButton size="sm" aria-label="Limpiar búsqueda" onClick={() => onChange('')} /> : null
      }
      w={{ base: '100%', xs: 320 }}
      {...props}
    />
  );
}
