/** An order's CFDI invoices for the operator (decision 0131): the list and the upload. */
import type { InvoiceAccepted, InvoiceRegistered, OrderInvoices } from '@portal/shared/schemas/invoices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

export function useOrderInvoices(id: number) {
  return useQuery({
    queryKey: adminKeys.orderInvoices(id),
    queryFn: ({ signal }) => api.get<OrderInvoices>(`/api/surtido/${id}/facturas`, { signal }),
  });
}

/**
 * POST /api/surtido/{id}/facturas (multipart `xml`, `pdf`, `envio`: a shipment's id or none for the whole
 * order): the order and its history are read again.
 */
export function useUploadInvoice(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ xml, pdf, envio }: { xml: File; pdf: File | null; envio: number | null }) => {
      const form = new FormData();
      if (envio !== null) form.set('envio', String(envio));
      form.set('xml', xml, xml.name);
      if (pdf) form.set('pdf', pdf, pdf.name);
      return api.post<InvoiceRegistered>(`/api/surtido/${id}/facturas`, form);
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adminKeys.order(id) }),
  });
}

/**
 * POST /api/surtido/{id}/facturas/{uuid}/aceptar-diferencia (decision 0133): the invoices and the order's
 * history are read again, also after a 409 (someone else resolved it).
 */
export function useAcceptDifference(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, motivo }: { uuid: string; motivo: string }) =>
      api.post<InvoiceAccepted>(`/api/surtido/${id}/facturas/${uuid}/aceptar-diferencia`, { motivo }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.order(id) }),
  });
}
