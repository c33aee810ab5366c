/**
 * The operator's shipments on the order page (decision 0125): «Registrar envío» (units of each line still to
 * ship, guía, paquetería and date), and per line «Cancelar faltante» (units left as unavailable, with a
 * reason) and «Cambiar fecha prometida». Each asks the server and shows its refusal inside the dialog.
 */
import {
  Alert,
  Autocomplete,
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  CARRIERS,
  GUIA_MAX,
  LINE_CANCEL_REASON_MAX,
  PAQUETERIA_MAX,
  shippable,
} from '@portal/shared/domain/fulfilment';
import { pesosToCentavos } from '@portal/shared/domain/money';
import type { OrderDetailDto, OrderLineDto } from '@portal/shared/schemas/orders';
import { IconBan, IconCalendarEvent, IconInfoCircle, IconTruckDelivery } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { businessToday, unitsLeft } from '../../../components/orders/order-shipments';
import { showSuccess } from '../../../components/ui/alerts';
import { DayField } from '../../../components/ui/day-field';
import { DialogActions, type DialogActionsProps } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { formatCentavos, formatIsoDate, formatOrderNumber } from '../../../lib/format';
import { useCancelLine, useChangePromise, useRegisterShipment } from '../fulfilment/api';

const CARRIER_NAMES = CARRIERS.map((c) => c.nombre);

/** Whether the operator may still ship or cancel units of the order: approved with units left. */
export function canShip(pedido: OrderDetailDto): boolean {
  return (
    pedido.status === 'aprobado' && shippable(pedido.surtido) && pedido.lineas.some((l) => unitsLeft(l) > 0)
  );
}

/** A dialog of this page: its fields, then the server's refusal above 'Cancelar' and its own button. */
function DialogShell({
  title,
  outcome,
  actions,
  children,
}: {
  title: string;
  /** Closes the dialog and holds the server's refusal of the last try (useOutcome). */
  outcome: Outcome;
  actions: Omit<DialogActionsProps, 'onCancel' | 'error'>;
  children: ReactNode;
}) {
  const onClose = outcome.close;
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        {children}
        <DialogActions {...actions} error={outcome.refusal} onCancel={onClose} />
      </Stack>
    </Modal>
  );
}

/** A dialog's answer: the server's words as a notice and the dialog closed, or its refusal inside it. */
function useOutcome(id: number, onClose: () => void) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const handlers = {
    onSuccess: (res: { msg: string }) => {
      showSuccess(`Pedido ${formatOrderNumber(id)}`, res.msg);
      onClose();
    },
    onError: (error: unknown) => setRefusal(errorMessage(error)),
  };
  return { refusal, handlers, close: onClose };
}
type Outcome = ReturnType<typeof useOutcome>;

/** A whole number of units typed in a field, or NaN. */
const units = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? 0 : Number(v));

/** «Registrar envío»: each line with units left, prefilled with all of them; guía, paquetería and date. */
export function ShipmentDialog({ pedido, onClose }: { pedido: OrderDetailDto; onClose: () => void }) {
  const today = businessToday();
  const open = pedido.lineas.filter((l) => unitsLeft(l) > 0);
  const [qty, setQty] = useState<Record<number, number | string>>(() =>
    Object.fromEntries(open.map((l) => [l.id, unitsLeft(l)])),
  );
  const [guia, setGuia] = useState('');
  const [paqueteria, setPaqueteria] = useState('');
  const [fecha, setFecha] = useState(today);
  const outcome = useOutcome(pedido.id, onClose);
  const ship = useRegisterShipment();

  const lineError = (l: OrderLineDto) => {
    const n = units(qty[l.id] ?? 0);
    if (!Number.isInteger(n) || n < 0) return 'Escribe un número entero de unidades.';
    if (n > unitsLeft(l)) return `No puedes enviar más de ${unitsLeft(l)}.`;
    return null;
  };
  const lineas = open
    .map((l) => ({ id: l.id, cantidad: units(qty[l.id] ?? 0) }))
    .filter((l) => Number.isInteger(l.cantidad) && l.cantidad > 0);
  const guiaLong = guia.trim().length > GUIA_MAX;
  const carrierLong = paqueteria.trim().length > PAQUETERIA_MAX;
  const dateError = !fecha
    ? 'Elige la fecha del envío.'
    : fecha > today
      ? 'La fecha del envío no puede ser posterior a hoy.'
      : null;
  const invalid = open.some(lineError) || lineas.length === 0 || guiaLong || carrierLong || !!dateError;

  const send = () =>
    ship.mutate(
      {
        id: pedido.id,
        body: {
          lineas,
          ...(guia.trim() ? { guia: guia.trim() } : {}),
          ...(paqueteria.trim() ? { paqueteria: paqueteria.trim() } : {}),
          fecha,
        },
      },
      outcome.handlers,
    );

  return (
    <DialogShell
      title={`Registrar envío del pedido ${formatOrderNumber(pedido.id)}`}
      outcome={outcome}
      actions={{
        errorTitle: 'No se pudo registrar el envío',
        busy: ship.isPending,
        onConfirm: send,
        confirmLabel: 'Registrar envío',
        confirmIcon: <IconTruckDelivery size={16} aria-hidden />,
        disabled: invalid,
      }}
    >
      <Text size="sm" c="dimmed">
        Indica cuántas unidades de cada producto salen en este envío; deja en 0 las que no se envían.
      </Text>
      <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
        <Text component="legend" size="sm" fw={600} mb={4}>
          Unidades por enviar
        </Text>
        {open.map((l, i) => (
          <NumberInput
            key={l.id}
            label={l.nombre}
            description={`Faltan ${unitsLeft(l)} de ${l.cantidad} · ${l.unidad_de_medida}`}
            min={0}
            max={unitsLeft(l)}
            allowDecimal={false}
            allowNegative={false}
            value={qty[l.id] ?? 0}
            onChange={(v) => setQty((q) => ({ ...q, [l.id]: v }))}
            error={lineError(l)}
            data-autofocus={i === 0 || undefined}
            maw={{ sm: 320 }}
            data-testid="envio-cantidad"
          />
        ))}
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Autocomplete
          label="Paquetería"
          description="Elige una o escribe otra."
          placeholder="Ej. Estafeta"
          data={CARRIER_NAMES}
          value={paqueteria}
          onChange={setPaqueteria}
          error={carrierLong ? `La paquetería admite hasta ${PAQUETERIA_MAX} caracteres.` : undefined}
        />
        <TextInput
          label="Guía"
          description="Opcional; el comprador la recibe por correo."
          placeholder="Ej. 1234567890"
          value={guia}
          onChange={(e) => setGuia(e.currentTarget.value)}
          error={guiaLong ? `La guía admite hasta ${GUIA_MAX} caracteres.` : undefined}
        />
      </SimpleGrid>
      <DayField label="Fecha del envío" value={fecha} onChange={setFecha} maxDate={today} error={dateError} />
    </DialogShell>
  );
}

/** «Cancelar faltante»: units left of one line (all of them by default) and the reason the buyer reads. */
export function CancelLineDialog({
  pedido,
  linea,
  onClose,
}: {
  pedido: OrderDetailDto;
  linea: OrderLineDto;
  onClose: () => void;
}) {
  const left = unitsLeft(linea);
  const [cantidad, setCantidad] = useState<number | string>(left);
  const [motivo, setMotivo] = useState('');
  const [touched, setTouched] = useState(false);
  const outcome = useOutcome(pedido.id, onClose);
  const cancel = useCancelLine(linea.id);
  const n = units(cantidad);
  const qtyError =
    !Number.isInteger(n) || n < 1
      ? 'Escribe al menos 1 unidad.'
      : n > left
        ? `No puedes cancelar más de ${left}.`
        : null;
  const reasonError =
    motivo.trim() === ''
      ? touched
        ? 'Escribe el motivo; el comprador lo verá.'
        : null
      : motivo.trim().length > LINE_CANCEL_REASON_MAX
        ? `El motivo admite hasta ${LINE_CANCEL_REASON_MAX} caracteres.`
        : null;
  const amount = qtyError ? null : formatCentavos(pesosToCentavos(linea.costo) * n);

  const send = () => {
    setTouched(true);
    if (qtyError || motivo.trim() === '' || reasonError) return;
    cancel.mutate({ id: pedido.id, body: { cantidad: n, motivo: motivo.trim() } }, outcome.handlers);
  };

  return (
    <DialogShell
      title={`Cancelar faltante de «${linea.nombre}»`}
      outcome={outcome}
      actions={{
        errorTitle: 'No se pudo cancelar',
        busy: cancel.isPending,
        cancelLabel: 'Volver',
        onConfirm: send,
        confirmLabel: 'Cancelar faltante',
        confirmIcon: <IconBan size={16} aria-hidden />,
        color: 'red',
        disabled: !!qtyError || !!reasonError,
      }}
    >
      <NumberInput
        label="Unidades por cancelar"
        description={`Faltan por enviar ${left} de ${linea.cantidad} · ${linea.unidad_de_medida}`}
        min={1}
        max={left}
        allowDecimal={false}
        allowNegative={false}
        value={cantidad}
        onChange={setCantidad}
        error={qtyError}
        w={{ base: '100%', sm: 220 }}
      />
      <Textarea
        label="Motivo"
        description="El comprador y quienes aprobaron el pedido reciben un aviso con este motivo."
        placeholder="Ej. Agotado con el proveedor"
        required
        autosize
        minRows={2}
        value={motivo}
        onChange={(e) => setMotivo(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        error={reasonError}
        data-autofocus
      />
      <Alert color="orange" variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
        {amount
          ? `Se cancelan ${amount} antes de IVA: ese importe sale del total del pedido y deja de contar en el presupuesto del mes del comprador.`
          : 'El importe cancelado sale del total del pedido y deja de contar en el presupuesto del mes del comprador.'}{' '}
        No se puede deshacer.
      </Alert>
    </DialogShell>
  );
}

/** «Cambiar fecha prometida» of one line: today or later. */
export function PromiseDialog({
  pedido,
  linea,
  onClose,
}: {
  pedido: OrderDetailDto;
  linea: OrderLineDto;
  onClose: () => void;
}) {
  const today = businessToday();
  const [fecha, setFecha] = useState(
    linea.fecha_promesa && linea.fecha_promesa >= today ? linea.fecha_promesa : today,
  );
  const outcome = useOutcome(pedido.id, onClose);
  const promise = useChangePromise();
  const dateError = !fecha
    ? 'Elige la fecha prometida.'
    : fecha < today
      ? 'La fecha prometida no puede ser anterior a hoy.'
      : null;

  const send = () => promise.mutate({ id: pedido.id, body: { fecha, lineas: [linea.id] } }, outcome.handlers);

  return (
    <DialogShell
      title={`Fecha prometida de «${linea.nombre}»`}
      outcome={outcome}
      actions={{
        errorTitle: 'No se pudo cambiar la fecha',
        busy: promise.isPending,
        onConfirm: send,
        confirmLabel: 'Guardar fecha',
        confirmIcon: <IconCalendarEvent size={16} aria-hidden />,
        disabled: !!dateError,
      }}
    >
      {linea.fecha_promesa ? (
        <Text size="sm" c="dimmed">
          Fecha prometida actual: {formatIsoDate(linea.fecha_promesa)}.
        </Text>
      ) : null}
      <DayField
        label="Nueva fecha prometida"
        value={fecha}
        onChange={setFecha}
        minDate={today}
        error={dateError}
      />
    </DialogShell>
  );
}

type Open =
  | { kind: 'envio' }
  | { kind: 'cancelar'; linea: OrderLineDto }
  | { kind: 'promesa'; linea: OrderLineDto }
  | null;

/** The operator's shipment actions on one order: the page's button, each line's buttons and their dialogs. */
export function useShipmentActions(pedido: OrderDetailDto | undefined) {
  const [open, setOpen] = useState<Open>(null);
  const active = pedido ? canShip(pedido) : false;
  const close = () => setOpen(null);

  const button = active ? (
    <Button
      leftSection={<IconTruckDelivery size={16} aria-hidden />}
      onClick={() => setOpen({ kind: 'envio' })}
    >
      Registrar envío
    </Button>
  ) : null;

  const lineActions = (linea: OrderLineDto) =>
    active && unitsLeft(linea) > 0 ? (
      <Group gap={4} mt={6} wrap="wrap">
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          leftSection={<IconBan size={12} aria-hidden />}
          onClick={() => setOpen({ kind: 'cancelar', linea })}
          aria-label={`Cancelar faltante de ${linea.nombre}`}
        >
          Cancelar faltante
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconCalendarEvent size={12} aria-hidden />}
          onClick={() => setOpen({ kind: 'promesa', linea })}
          aria-label={`Cambiar fecha prometida de ${linea.nombre}`}
        >
          Cambiar fecha prometida
        </Button>
      </Group>
    ) : null;

  const dialogs =
    !pedido || !open ? null : open.kind === 'envio' ? (
      <ShipmentDialog pedido={pedido} onClose={close} />
    ) : open.kind === 'cancelar' ? (
      <CancelLineDialog pedido={pedido} linea={open.linea} onClose={close} />
    ) : (
      <PromiseDialog pedido={pedido} linea={open.linea} onClose={close} />
    );

  return { button, lineActions, dialogs };
}
