/**
 * "Límite de compras": orders a month, or none. The "Sin límite" switch stands for the wire's
 * -1, which the forms used to ask the administrator to type; on, the number field is disabled and says
 * "Sin límite"; off, it takes back the last number typed (or 1). Takes what Mantine's
 * `form.getInputProps(...)` gives.
 */
import { NumberInput, Stack, Switch } from '@mantine/core';
import { type ReactNode, useRef } from 'react';

/** The wire value of "no limit". */
export const UNLIMITED = -1;

/** What `form.getInputProps('limite_de_compras')` gives, and the asterisk. */
interface PurchaseLimitFieldProps {
  value?: number | string;
  onChange?: (value: number | string) => void;
  onFocus?: () => void;
  onBlur?: () => void;
  error?: ReactNode;
  withAsterisk?: boolean;
  /** Neither the number nor the switch can be changed (the form's user may not change limits). */
  disabled?: boolean;
}

export function PurchaseLimitField({
  value = '',
  onChange = () => undefined,
  onFocus,
  onBlur,
  error,
  withAsterisk,
  disabled = false,
}: PurchaseLimitFieldProps) {
  const unlimited = value === UNLIMITED || value === String(UNLIMITED);
  const lastNumber = useRef<number | string>(1);
  if (!unlimited && value !== '') lastNumber.current = value;
  return (
    <Stack gap={8}>
      <NumberInput
        label="Límite de compras"
        description="Pedidos al mes"
        withAsterisk={withAsterisk && !unlimited}
        min={0}
        allowNegative={false}
        allowDecimal={false}
        disabled={disabled || unlimited}
        hideControls={disabled || unlimited}
        placeholder={unlimited ? 'Sin límite' : undefined}
        value={unlimited ? '' : value}
        onChange={onChange}
        onFocus={onFocus}
        onBlur={onBlur}
        error={error}
      />
      <Switch
        label="Sin límite"
        checked={unlimited}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked ? UNLIMITED : lastNumber.current)}
      />
    </Stack>
  );
}
