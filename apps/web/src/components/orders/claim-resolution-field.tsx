import { Radio, Stack } from '@mantine/core';
import {
  CLAIM_RESOLUTION_LABELS,
  CLAIM_RESOLUTIONS,
  type ClaimResolution,
} from '@portal/shared/domain/claims';

/**
 * Reposición or Crédito, each with what it means for its reader: what the buyer asks for on a receipt or a
 * claim, what the operator grants (decision 0127).
 */
export function ClaimResolutionField({
  label,
  value,
  onChange,
  descriptions,
  error,
  required,
}: {
  label: string;
  value: ClaimResolution | null;
  onChange: (resolucion: ClaimResolution) => void;
  descriptions: Record<ClaimResolution, string>;
  error?: string;
  required?: boolean;
}) {
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(v) => onChange(v as ClaimResolution)}
      error={error}
      withAsterisk={required}
    >
      <Stack gap="xs" mt={6}>
        {CLAIM_RESOLUTIONS.map((r) => (
          <Radio key={r} value={r} label={CLAIM_RESOLUTION_LABELS[r]} description={descriptions[r]} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
