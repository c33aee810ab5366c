/**
 * 'Asignar productos…' for the users checked on the users list (decision 0061): one or several categories
 * (or all of them) or some products, habilitar or deshabilitar, and either each product's current limit or
 * a new one (the client's default proposed, decision 0096); the button says what will happen.
 * POST /api/productos/asignar_lote, one transaction for all of them. A client administrator (rol 5, with its
 * client's `asignaciones`) has no inventory route: it finds the products among the first checked buyer's
 * (GET /api/usuarios/{id}/productos lists every product of the client).
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/SegmentedControl.css';
import {
  Checkbox,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { showSuccess } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { errorMessage } from '../../../lib/api';
import { useClientCategories, useProducts } from '../inventory/api';
import { isDistributor } from '../scope';
import { useAdminScope } from '../scope-context';
import { useAssignBatch, useUserProducts } from './assignments-api';

type Scope = 'categoria' | 'productos';

/** 'Conservar la cantidad límite' as the administrator last left it, for this browser session. */
const KEEP_LIMIT_KEY = 'portal:asignar-conservar-limite';
function storedKeepLimit(): boolean {
  try {
    return window.sessionStorage.getItem(KEEP_LIMIT_KEY) !== '0';
  } catch {
    return true;
  }
}
function storeKeepLimit(keep: boolean) {
  try {
    window.sessionStorage.setItem(KEEP_LIMIT_KEY, keep ? '1' : '0');
  } catch {
    // Storage refused (private mode): the choice is not remembered.
  }
}

/**
 * A searchable choice of the client's products (server search); chosen ones stay listed. The distributor
 * searches the inventory; a client administrator the products of a buyer of its client (`viaUser`).
 */
function ProductPicker({
  idCliente,
  viaUser,
  value,
  onChange,
}: {
  idCliente: number;
  /** The buyer whose products a client administrator searches; undefined for the distributor. */
  viaUser: number | null | undefined;
  value: { id: number; label: string }[];
  onChange: (v: { id: number; label: string }[]) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const inventory = useProducts(viaUser === undefined ? idCliente : null, {
    page: 1,
    q: debounced,
    categoria: null,
    activo: 'todos',
  });
  const buyers = useUserProducts(viaUser ?? 0, 1, debounced, null, typeof viaUser === 'number');
  const query = viaUser === undefined ? inventory : buyers;
  const found = (query.data?.productos ?? []).map((p) => ({
    id: p.id,
    label: `${p.clave_interna} · ${p.nombre}`,
  }));
  const known = new Map([...value, ...found].map((o) => [String(o.id), o]));
  return (
    <MultiSelect
      label="Productos"
      placeholder={value.length ? undefined : 'Busca por nombre o clave'}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={query.isFetching ? 'Buscando…' : 'Ningún producto coincide'}
      data={[...known.values()].map((o) => ({ value: String(o.id), label: o.label }))}
      value={value.map((o) => String(o.id))}
      onChange={(ids) => onChange(ids.map((id) => known.get(id)!).filter(Boolean))}
      maxDropdownHeight={260}
    />
  );
}

export function BulkAssignDialog({
  opened,
  onClose,
  idCliente,
  defaultLimit,
  users,
  onDone,
}: {
  opened: boolean;
  onClose: () => void;
  idCliente: number;
  /** The client's limite_por_defecto: what a new assignment gets without a limit. */
  defaultLimit: number;
  /** The checked users (rol 1 of the client). */
  users: { id: number; usuario: string }[];
  /** After a successful assignment (the dialog closes itself). */
  onDone?: () => void;
}) {
  const batch = useAssignBatch();
  const categories = useClientCategories(idCliente, opened);
  const viaUser = isDistributor(useAdminScope()) ? undefined : (users[0]?.id ?? null);
  const [scope, setScope] = useState<Scope>('categoria');
  const [categorias, setCategorias] = useState<number[]>([]);
  const [productos, setProductos] = useState<{ id: number; label: string }[]>([]);
  const [asignado, setAsignado] = useState(true);
  const [keepLimit, setKeepLimitState] = useState(storedKeepLimit);
  const setKeepLimit = (keep: boolean) => {
    setKeepLimitState(keep);
    storeKeepLimit(keep);
  };
  const [limit, setLimit] = useState<number | string>(defaultLimit);
  // The client's default is proposed whenever the dialog opens (or the client changes).
  useEffect(() => {
    if (opened) {
      setLimit(defaultLimit);
      setKeepLimitState(storedKeepLimit());
    }
  }, [opened, defaultLimit]);
  const [error, setError] = useState<string | null>(null);

  const allCategories = categories.data ?? [];
  const chosen = allCategories.filter((c) => categorias.includes(c.id));
  const everyCategory = allCategories.length > 0 && chosen.length === allCategories.length;
  const productCount = scope === 'categoria' ? chosen.reduce((n, c) => n + c.productos, 0) : productos.length;
  const limitOk = keepLimit || (Number.isInteger(Number(limit)) && Number(limit) >= 1 && limit !== '');
  const ready = (scope === 'categoria' ? chosen.length > 0 : productos.length > 0) && limitOk;
  const verb = asignado ? 'Habilitar' : 'Deshabilitar';
  const what =
    scope === 'categoria'
      ? chosen.length === 0
        ? 'los productos de las categorías'
        : everyCategory && chosen.length > 1
          ? `los ${productCount} producto(s) de todas las categorías`
          : chosen.length === 1
            ? `los ${productCount} producto(s) de ${chosen[0]!.nombre}`
            : `los ${productCount} producto(s) de ${chosen.length} categorías`
      : `${productos.length} producto(s)`;

  const close = () => {
    if (batch.isPending) return;
    setError(null);
    onClose();
  };

  const submit = () => {
    if (!ready) return;
    setError(null);
    batch.mutate(
      {
        usuarios: users.map((u) => u.id),
        ...(scope === 'categoria'
          ? { categorias: chosen.map((c) => c.id) }
          : { productos: productos.map((p) => p.id) }),
        asignado,
        ...(keepLimit || !asignado ? {} : { cantidad_limite: Number(limit) }),
      },
      {
        onSuccess: (res) => {
          showSuccess('Productos asignados', res.msg);
          onDone?.();
          onClose();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Asignar productos" centered size="lg">
      <Stack gap="md">
        <Text size="sm">
          Para {users.length === 1 ? 'el usuario' : `los ${users.length} usuarios`} seleccionado
          {users.length === 1 ? '' : 's'}:{' '}
          <Text span fw={600}>
            {users
              .slice(0, 5)
              .map((u) => u.usuario)
              .join(', ')}
            {users.length > 5 ? ` y ${users.length - 5} más` : ''}
          </Text>
        </Text>
        <SegmentedControl
          aria-label="Qué productos"
          value={scope}
          onChange={(v) => setScope(v as Scope)}
          data={[
            { value: 'categoria', label: 'Categorías' },
            { value: 'productos', label: 'Algunos productos' },
          ]}
        />
        {scope === 'categoria' ? (
          <Stack gap={6}>
            <MultiSelect
              label="Categorías"
              placeholder={chosen.length ? undefined : 'Elige una o varias categorías'}
              searchable
              clearable
              data={allCategories.map((c) => ({
                value: String(c.id),
                label: `${c.nombre} (${c.productos})`,
              }))}
              value={chosen.map((c) => String(c.id))}
              onChange={(ids) => setCategorias(ids.map(Number))}
              nothingFoundMessage="Sin coincidencias"
              maxDropdownHeight={260}
            />
            <Checkbox
              label="Todas las categorías"
              checked={everyCategory}
              indeterminate={chosen.length > 0 && !everyCategory}
              disabled={allCategories.length === 0}
              onChange={(e) => setCategorias(e.currentTarget.checked ? allCategories.map((c) => c.id) : [])}
            />
          </Stack>
        ) : (
          <ProductPicker idCliente={idCliente} viaUser={viaUser} value={productos} onChange={setProductos} />
        )}
        <SegmentedControl
          aria-label="Habilitar o deshabilitar"
          value={asignado ? 'si' : 'no'}
          onChange={(v) => setAsignado(v === 'si')}
          data={[
            { value: 'si', label: 'Habilitar' },
            { value: 'no', label: 'Deshabilitar' },
          ]}
        />
        {asignado ? (
          <Stack gap="xs">
            <Switch
              checked={keepLimit}
              onChange={(e) => setKeepLimit(e.currentTarget.checked)}
              label="Conservar la cantidad límite de cada producto"
              description={`La cantidad límite es el máximo de piezas por pedido; los productos nuevos tendrán ${defaultLimit}, la cantidad límite por defecto del cliente.`}
            />
            {keepLimit ? null : (
              <NumberInput
                label="Cantidad límite"
                description="Piezas por pedido, para todos los productos elegidos."
                value={limit}
                onChange={setLimit}
                min={1}
                allowDecimal={false}
                allowNegative={false}
                w={200}
                error={limitOk ? undefined : 'Debe ser un número entero mayor o igual a 1.'}
              />
            )}
          </Stack>
        ) : null}
        <DialogActions
          error={error}
          busy={batch.isPending}
          onCancel={close}
          onConfirm={submit}
          confirmLabel={`${verb} ${what} para ${users.length} usuario${users.length === 1 ? '' : 's'}`}
          color={asignado ? undefined : 'red'}
          disabled={!ready}
        />
      </Stack>
    </Modal>
  );
}
