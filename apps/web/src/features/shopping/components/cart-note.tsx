import { Text, Textarea } from '@mantine/core';
import { NOTA_MAX } from '@portal/shared/schemas/shopping';

interface CartNoteProps {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

/** The optional note for the approvers that travels with the purchase, with its characters left. */
export function CartNote({ value, onChange, disabled }: CartNoteProps) {
  return (
    <Textarea
      label="Nota para el autorizador (opcional)"
      placeholder="Ej. Entregar en el almacén 2 antes del viernes."
      autosize
      minRows={2}
      maxRows={6}
      maxLength={NOTA_MAX}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      disabled={disabled}
      description={
        <Text span size="xs" c="dimmed" data-testid="nota-contador" aria-live="polite">
          {value.length} / {NOTA_MAX} caracteres
        </Text>
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
