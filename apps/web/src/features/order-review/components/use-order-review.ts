/**
 * The state of one order under review: the quantities the authorizer is editing (docs/domain.md "Order
 * workflow": the approval saves them), the line editor, the open dialog and the Approve/Cancel/Send back
 * mutations.
 * A transition's answer replaces the cached order; a 404 goes back to the list; a 409/403/422 shows the
 * server's words and reloads the order.
 */
import { pesosToCentavos } from '@portal/shared/domain/money';
import { businessDate } from '@portal/shared/domain/time';
import type { WorkflowResponse } from '@portal/shared/schemas/orders';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatOrderNumber, getBusinessTimeZone, titleCase } from '../../../lib/format';
import {
  type AuthorizerOrderView,
  addOrderComment,
  approveOrder,
  authorizerKeys,
  cancelOrder,
  returnOrder,
} from '../api/orders';
import {
  approvalLines,
  budgetAfter,
  checkQuantity,
  hasEdits,
  initialQuantities,
  type Quantities,
  totalsFor,
  unitsFor,
} from '../lib/order-edits';
import { ORDERS_LIST } from '../lib/queue';
import type { LineControls } from './order-lines';

export type ReviewDialog = 'aprobar' | 'cancelar' | 'devolver' | null;

export function useOrderReview(view: AuthorizerOrderView) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pedido, acciones } = view;

  const [quantities, setQuantities] = useState<Quantities>(() => initialQuantities(pedido.lineas));
  const [dialog, setDialog] = useState<ReviewDialog>(null);
  // The server's refusal of the last action, at the top of the order (decision 0070).
  const [refusal, setRefusal] = useState<string | null>(null);
  const [editor, setEditor] = useState<LineControls['editor']>(null);

  useDialogFromLink(acciones, setDialog);

  const editable = acciones.editar;
  const edited = editable && hasEdits(pedido.lineas, quantities);
  const totals = useMemo(() => totalsFor(pedido.lineas, quantities), [pedido.lineas, quantities]);
  const budget = useMemo(() => budgetAfter(view, quantities), [view, quantities]);

  const onDone = (result: WorkflowResponse) => {
    setDialog(null);
    setRefusal(null);
    queryClient.setQueryData<AuthorizerOrderView>(authorizerKeys.order(pedido.id), (old) =>
      old
        ? {
            ...old,
            pedido: { ...result.pedido, status: result.nuevo_estatus },
            acciones: { aprobar: false, cancelar: false, editar: false, devolver: false },
          }
        : old,
    );
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.order(pedido.id) });
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.lists() });
    showSuccess(
      result.msg,
      `Pedido ${formatOrderNumber(pedido.id)} · Estatus: ${titleCase(result.nuevo_estatus)}`,
    );
  };
  const onFailed = (error: unknown) => {
    setDialog(null);
    if (isApiError(error) && error.status === 404) {
      void navigate(ORDERS_LIST, { replace: true });
      return;
    }
    // 409 (someone else acted first), 403, 422 (budget): show the server's words and the current state.
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.order(pedido.id) });
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.lists() });
    setRefusal(errorMessage(error));
  };

  const approve = useMutation({
    mutationFn: (comentario?: string) =>
      approveOrder({
        id: pedido.id,
        orden: approvalLines(pedido.lineas, quantities),
        fecha: businessDate(Date.now(), getBusinessTimeZone()),
        total: totals.total / 100,
        ...(comentario?.trim() ? { comentario: comentario.trim() } : {}),
      }),
    onSuccess: onDone,
    onError: onFailed,
  });
  const cancel = useMutation({
    mutationFn: (motivo: string) => cancelOrder(pedido.id, motivo),
    onSuccess: onDone,
    onError: onFailed,
  });
  const sendBack = useMutation({
    mutationFn: (comentario: string) => returnOrder(pedido.id, comentario),
    onSuccess: onDone,
    onError: onFailed,
  });
  const pending = approve.isPending || cancel.isPending || sendBack.isPending;
  /** A comment outside a transition: the answer's thread replaces the cached one. */
  const comment = useMutation({
    mutationFn: (texto: string) => addOrderComment(pedido.id, texto),
    onSuccess: (res) => {
      queryClient.setQueryData<AuthorizerOrderView>(authorizerKeys.order(pedido.id), (old) =>
        old
          ? {
              ...old,
              pedido: {
                ...old.pedido,
                comentarios: res.comentarios,
                comentarios_total: res.comentarios_total,
              },
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: authorizerKeys.lists() });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 404) void navigate(ORDERS_LIST, { replace: true });
    },
  });

  const controls: LineControls = {
    editable: editable && !pending,
    quantityOf: (id) => quantities.get(id),
    limitOf: (id) => view.limites[String(id)] ?? 1,
    keptCount: quantities.size,
    editor,
    startEdit: (id) => setEditor({ id, value: quantities.get(id) ?? 1, error: null }),
    changeDraft: (value) => setEditor((e) => (e ? { ...e, value, error: null } : e)),
    applyEdit: () => {
      if (!editor) return;
      const result = checkQuantity(view, quantities, editor.id, editor.value);
      if (result.ok) {
        setQuantities(result.quantities);
        setEditor(null);
        return;
      }
      // Over the budget the quantity goes back to what it was; the error stays on the editor.
      const value = result.restore ? (quantities.get(editor.id) ?? editor.value) : editor.value;
      setEditor({ ...editor, value, error: result.error });
    },
    cancelEdit: () => setEditor(null),
    remove: (id) => {
      if (quantities.size <= 1) return;
      const next = new Map(quantities);
      next.delete(id);
      setQuantities(next);
      if (editor?.id === id) setEditor(null);
    },
    restore: (id) => {
      const line = pedido.lineas.find((l) => l.id_producto === id);
      if (!line) return;
      const next = new Map(quantities);
      next.set(id, line.cantidad);
      setQuantities(next);
    },
  };

  const discardEdits = () => {
    setQuantities(initialQuantities(pedido.lineas));
    setEditor(null);
  };

  return {
    quantities,
    edited,
    totals,
    budget,
    units: unitsFor(quantities),
    originalTotal: pesosToCentavos(pedido.total),
    controls,
    discardEdits,
    dialog,
    setDialog,
    refusal,
    clearRefusal: () => setRefusal(null),
    approve,
    cancel,
    sendBack,
    comment,
    pending,
  };
}

/**
 * The review e-mail's buttons open the order with `?accion=aprobar` or `?accion=cancelar` (decision 0112):
 * the dialog opens once, when the server offers that action, and the parameter leaves the address (a reload
 * or the back button does not open it again). It only opens the dialog: the approval or cancellation is
 * still the user's confirmation in it.
 */
function useDialogFromLink(
  acciones: AuthorizerOrderView['acciones'],
  setDialog: (dialog: ReviewDialog) => void,
): void {
  const [params, setParams] = useSearchParams();
  const accion = params.get('accion');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per link, for the order as first loaded
  useEffect(() => {
    if (!accion) return;
    if (accion === 'aprobar' && acciones.aprobar) setDialog('aprobar');
    else if (accion === 'cancelar' && acciones.cancelar) setDialog('cancelar');
    const rest = new URLSearchParams(params);
    rest.delete('accion');
    setParams(rest, { replace: true });
  }, [accion]);
}
