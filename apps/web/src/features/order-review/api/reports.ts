import type { ReportBody } from '@portal/shared/schemas/orders';
import type { z } from 'zod';
import { apiBlob } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

export type ReportType = ReportBody['tipo'];

export const REPORT_FILENAME = 'reporte.csv';

/** The general report, or the per-product detail when tipo is not 'general'. */
function reportPath(tipo: ReportType): string {
  return tipo === 'general' ? '/api/reporte/autorizador' : '/api/reporte/autorizador/productos/detalle';
}

/** Asks the server for the CSV (sent with the XSRF header like every POST) and saves it as reporte.csv. */
export async function downloadReport(body: z.input<typeof ReportBody>): Promise<void> {
  const blob = await apiBlob('POST', reportPath(body.tipo), { body });
  saveBlob(blob, REPORT_FILENAME);
}
