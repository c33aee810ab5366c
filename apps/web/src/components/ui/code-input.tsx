import { TextInput, type TextInputProps } from '@mantine/core';
import type { Ref } from 'react';

/** Digits of an authenticator code as typed or pasted ("123 456", "123-456"), at most six. */
export function totpDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

type CodeInputProps = Omit<TextInputProps, 'onChange' | 'value'> & {
  value?: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * The 6-digit code of an authenticator app: a numeric keyboard on phones, the code the phone offers
 * (one-time-code), only digits kept.
 */
export function TotpCodeInput({ value, onChange, label = 'Código de 6 dígitos', ...props }: CodeInputProps) {
  return (
    <TextInput
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={7}
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(totpDigits(event.currentTarget.value))}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.3em' } }}
      {...props}
    />
  );
}

/** A backup code (`xxxx-xxxx`), as written down or printed. */
export function BackupCodeInput({ value, onChange, label = 'Código de respaldo', ...props }: CodeInputProps) {
  return (
    <TextInput
      label={label}
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={20}
      placeholder="xxxx-xxxx"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.1em' } }}
      {...props}
    />
  );
}
