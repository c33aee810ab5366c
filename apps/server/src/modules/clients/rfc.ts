/**
 * The RFC's whole check (decision 0128): its length and shape as the forms check them
 * (`rfcProblem`, packages/shared/src/domain/fiscal.ts), then @nodecfdi/rfc 2.0.6's parser (a real date
 * AAMMDD) and its check digit. On the server only: the library brings a date library of 22 kB (gzip) that
 * the browser's screens need not load; the form shows this check's refusal from the server's answer.
 */
import { Rfc } from '@nodecfdi/rfc';
import { FISCAL_MSG, rfcProblem } from '@portal/shared/domain/fiscal';

/** What is wrong with a normalised RFC, as the message to show; null when it is valid. */
export function rfcCheck(rfc: string): string | null {
  const shape = rfcProblem(rfc);
  if (shape) return shape;
  const parsed = Rfc.parseOrNull(rfc);
  if (!parsed) return FISCAL_MSG.rfcForma;
  return parsed.doesCheckSumMatch() ? null : FISCAL_MSG.rfcDigito;
}
