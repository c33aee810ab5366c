/**
 * CSV imports (docs/domain.md "Imports"): templates, uploads and the background jobs that process
 * them. A job is followed from this module, not from a screen, so closing the dialog or going to another
 * page never loses it: when it ends the administrator gets a notification with the counts, and the lists
 * the job touched (products and categories, or users) are refreshed.
 */

import { notifications } from '@mantine/notifications';
import { MSG } from '@portal/shared/messages';
import type {
  ImportAccepted,
  ImportDetail,
  ImportJobDto,
  ImportKind,
  ImportListResponse,
  ImportPricePreview,
} from '@portal/shared/schemas/imports';
import { IconAlertTriangle, IconCheck, IconClockHour4 } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiBlob, isApiError } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';
import { formatCount, plural } from '../../../lib/format';
import { queryClient } from '../../../lib/query-client';
import { adminKeys } from '../api/keys';

export const TEMPLATE_FILENAMES: Record<ImportKind, string> = {
  productos: 'plantilla.csv',
  usuarios: 'plantilla_carga_de_usuarios.csv',
  asignaciones: 'plantilla_asignaciones.csv',
};

export const KIND_LABELS: Record<ImportKind, string> = {
  productos: 'Productos',
  usuarios: 'Usuarios',
  asignaciones: 'Asignaciones',
};

export function isRunning(status: ImportJobDto['status']): boolean {
  return status === 'pendiente' || status === 'procesando';
}

/** Status as shown to people, with its colour (a finished import with refused rows is orange). */
export function statusView(job: Pick<ImportJobDto, 'status' | 'error_rows'>): {
  label: string;
  color: string;
} {
  switch (job.status) {
    case 'pendiente':
      return { label: 'En espera', color: 'gray' };
    case 'procesando':
      return { label: 'Procesando', color: 'blue' };
    case 'fallido':
      return { label: 'Fallida', color: 'red' };
    default:
      return job.error_rows > 0
        ? { label: 'Terminada con errores', color: 'orange' }
        : { label: 'Terminada', color: 'teal' };
  }
}

/** The per-row error report of an import (a plain same-origin GET: a link downloads it). */
export function errorReportUrl(id: number): string {
  return `/api/importaciones/${id}/errores.csv`;
}

/** POST /api/template/{kind} {id_cliente} → the kind's template (TEMPLATE_FILENAMES). */
export async function downloadTemplate(kind: ImportKind, idCliente: number): Promise<void> {
  const blob = await apiBlob('POST', `/api/template/${kind}`, { body: { id_cliente: idCliente } });
  saveBlob(blob, TEMPLATE_FILENAMES[kind]);
}

/** An import's form: the client and the file. */
function importForm(idCliente: number, file: File): FormData {
  const form = new FormData();
  form.set('id_cliente', String(idCliente));
  form.set('file', file, file.name);
  return form;
}

/** POST /api/load/{kind} (multipart: file, id_cliente); answers at once with the import's id. */
export function uploadImport(kind: ImportKind, idCliente: number, file: File): Promise<ImportAccepted> {
  return api.post<ImportAccepted>(`/api/load/${kind}`, importForm(idCliente, file));
}

/** POST /api/importaciones/productos/vista_previa: what a product file's prices would touch; writes nothing. */
export function previewProductPrices(idCliente: number, file: File): Promise<ImportPricePreview> {
  return api.post<ImportPricePreview>(
    '/api/importaciones/productos/vista_previa',
    importForm(idCliente, file),
  );
}

export function fetchImport(id: number, signal?: AbortSignal): Promise<ImportDetail> {
  return api.get<ImportDetail>(`/api/importaciones/${id}`, { signal });
}

/** One import with its row errors; kept fresh by the tracker below while it runs. */
export function useImportDetail(id: number | null) {
  return useQuery({
    queryKey: adminKeys.import(id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => fetchImport(id!, signal),
    staleTime: 2_000,
  });
}

/** How often the recent imports are read again while one of them is still running. */
const LIST_POLL_MS = 1_500;

/**
 * The client's imports, newest first (10 per page); running ones are followed by the tracker, and the list
 * itself is read again until none is running, so its status and counts are the job's real ones.
 */
export function useImportList(idCliente: number, page: number) {
  const query = useQuery<ImportListResponse>({
    queryKey: adminKeys.importsPage(idCliente, page),
    placeholderData: keepPreviousData,
    staleTime: 1_000,
    refetchInterval: (q) =>
      q.state.data?.importaciones.some((job) => isRunning(job.status)) ? LIST_POLL_MS : false,
    queryFn: ({ signal }) =>
      api.get<ImportListResponse>(`/api/importaciones?id_cliente=${idCliente}&page=${page}`, { signal }),
  });
  const rows = query.data?.importaciones;
  useEffect(() => {
    for (const job of rows ?? []) if (isRunning(job.status)) trackImport(job.id, job.tipo, job.id_cliente);
  }, [rows]);
  return query;
}

// ---------------------------------------------------------------------------------------------------------
// The tracker

const tracked = new Set<number>();
const POLL_FIRST_MS = 800;
const POLL_MAX_MS = 4_000;
const MAX_FAILURES = 5;

const sleep = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Follows an import until it ends (idempotent: a job is followed once). */
export function trackImport(id: number, kind: ImportKind, idCliente: number): void {
  if (tracked.has(id)) return;
  tracked.add(id);
  void follow(id, kind, idCliente).finally(() => tracked.delete(id));
}

async function follow(id: number, kind: ImportKind, idCliente: number): Promise<void> {
  let delay = POLL_FIRST_MS;
  let failures = 0;
  let lastOk = -1;
  for (;;) {
    await sleep(delay);
    let detail: ImportDetail;
    try {
      detail = await fetchImport(id);
      failures = 0;
    } catch (error) {
      // Signed out, or the import is gone: nothing more to follow. A network blip: try again a few times.
      if (isApiError(error) && error.status >= 400 && error.status < 500) return;
      if (++failures >= MAX_FAILURES) return;
      delay = POLL_MAX_MS;
      continue;
    }
    queryClient.setQueryData(adminKeys.import(id), detail);
    if (!isRunning(detail.status)) {
      announce(detail);
      await refreshAfter(kind, idCliente);
      return;
    }
    if (detail.ok_rows !== lastOk) {
      lastOk = detail.ok_rows;
      void queryClient.invalidateQueries({ queryKey: adminKeys.imports, refetchType: 'active' });
    }
    delay = Math.min(Math.round(delay * 1.5), POLL_MAX_MS);
  }
}

/** The counts of a finished import, in one sentence. */
export function resultSentence(job: Pick<ImportJobDto, 'total_rows' | 'ok_rows' | 'error_rows'>): string {
  const ok = plural(job.ok_rows, 'registro procesado', 'registros procesados');
  const errors =
    job.error_rows > 0
      ? plural(job.error_rows, 'registro con errores', 'registros con errores')
      : 'sin errores';
  return `${ok} de ${formatCount(job.total_rows)}, ${errors}.`;
}

/**
 * The notices of finished imports still on screen, by kind and client: a newer import of the same kind for
 * the same client replaces them, so a clean re-import never sits next to the earlier failure.
 */
const shownNotices = new Map<string, string[]>();

function replaceNotices(detail: ImportDetail): string {
  const key = `${detail.tipo}-${detail.id_cliente}`;
  for (const id of shownNotices.get(key) ?? []) notifications.hide(id);
  const id = `importacion-${detail.id}`;
  shownNotices.set(key, [id]);
  return id;
}

function announce(detail: ImportDetail): void {
  const what = `${KIND_LABELS[detail.tipo]} · ${detail.archivo}`;
  const id = replaceNotices(detail);
  if (detail.status === 'fallido') {
    const motivo = detail.errores.find((e) => e.fila === 0)?.motivo;
    notifications.show({
      id,
      title: 'La importación no se completó',
      message: `${what}. ${motivo ?? ''} ${resultSentence(detail)}`.trim(),
      color: 'red',
      icon: <IconAlertTriangle size={18} />,
      autoClose: false,
      withBorder: true,
      closeButtonProps: { 'aria-label': 'Cerrar notificación' },
    });
    return;
  }
  notifications.show({
    id,
    title: detail.error_rows > 0 ? 'Importación terminada con errores' : 'Importación terminada',
    message: `${what}: ${resultSentence(detail)}${
      detail.error_rows > 0 ? ' Revisa el detalle en la ventana de importación.' : ''
    }`,
    color: detail.error_rows > 0 ? 'orange' : 'teal',
    icon: detail.error_rows > 0 ? <IconAlertTriangle size={18} /> : <IconCheck size={18} />,
    autoClose: detail.error_rows > 0 ? false : 8_000,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Cerrar notificación' },
  });
}

/** Refreshes what a finished import may have changed. */
async function refreshAfter(kind: ImportKind, idCliente: number): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: adminKeys.imports }),
    queryClient.invalidateQueries({ queryKey: adminKeys.overview }),
    // Products, or the client's categories (an import may create some), or the users' lists and details,
    // or the users' products (assignments).
    queryClient.invalidateQueries({
      queryKey:
        kind === 'productos'
          ? adminKeys.inventory(idCliente)
          : kind === 'asignaciones'
            ? adminKeys.allUserProducts
            : adminKeys.users,
    }),
  ]);
}

/** The notification of an accepted upload. */
export function announceAccepted(accepted: ImportAccepted): void {
  notifications.show({
    title: accepted.msg || MSG.procesandoArchivo,
    message: accepted.detalle || MSG.procesandoDetalle,
    color: 'blue',
    icon: <IconClockHour4 size={18} />,
    autoClose: 5_000,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Cerrar notificación' },
  });
}
