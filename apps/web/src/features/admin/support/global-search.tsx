/**
 * The header's search on the administrator's screens: users (username, name, e-mail) and orders (number,
 * buyer) in one dropdown, grouped, navigable with the arrows and Enter. A user opens Usuarios with the
 * client chosen and the user's drawer open; an order opens its read-only page.
 */
import { ActionIcon, Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { isRol, ROLE_NAMES } from '@portal/shared/domain/roles';
import { SUPPORT_SEARCH_MIN_LENGTH } from '@portal/shared/schemas/support';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { StatusBadge } from '../../../components/orders/status-badge';
import { formatDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { useSupportSearch } from './api';

export const SEARCH_DEBOUNCE_MS = 250;

/** Where a result leads. */
export function resultPath(value: string): string {
  const [kind, id, cliente] = value.split(':');
  return kind === 'u'
    ? `/administrador/usuarios?${new URLSearchParams({ cliente: cliente ?? '', editar: id ?? '' })}`
    : `/administrador/pedidos/${id}`;
}

export function GlobalSearch() {
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const [debounced] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const q = debounced.length >= SUPPORT_SEARCH_MIN_LENGTH ? debounced : null;
  const search = useSupportSearch(q);
  // Only the results of what is typed now: while the typing settles or its search runs, the list says
  // "Buscando…", so Enter or a click never opens a result of the previous words.
  const data = q !== null && debounced === value.trim() ? search.data : undefined;
  const usuarios = data?.usuarios ?? [];
  const pedidos = data?.pedidos ?? [];

  // Enter opens the first result without touching the arrows.
  useEffect(() => {
    if (data && usuarios.length + pedidos.length > 0) combobox.selectFirstOption();
  }, [data, usuarios.length, pedidos.length, combobox]);

  const open = value.trim().length >= SUPPORT_SEARCH_MIN_LENGTH;
  return (
    <Combobox
      store={combobox}
      width={560}
      position="bottom-start"
      shadow="md"
      onOptionSubmit={(v) => {
        combobox.closeDropdown();
        setValue('');
        input.current?.blur();
        void navigate(resultPath(v));
      }}
    >
      <Combobox.Target>
        <TextInput
          ref={input}
          type="search"
          placeholder="Buscar usuarios o pedidos (#00012)..."
          aria-label="Buscar en el portal: usuarios y pedidos"
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={
            search.isFetching && q !== null ? (
              <Loader size={14} />
            ) : value ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label="Limpiar búsqueda"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => setValue('')}
              >
                <IconX size={14} />
              </ActionIcon>
            ) : null
          }
          radius="xl"
          w="100%"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!open} data-testid="buscar-resultados">
        <Combobox.Options mah={420} style={{ overflowY: 'auto' }} aria-label="Resultados de la búsqueda">
          {!data ? (
            <Combobox.Empty>Buscando…</Combobox.Empty>
          ) : usuarios.length + pedidos.length === 0 ? (
            <Combobox.Empty>Sin resultados</Combobox.Empty>
          ) : null}
          {usuarios.length > 0 ? (
            <Combobox.Group label="Usuarios">
              {usuarios.map((u) => (
                <Combobox.Option key={`u${u.id}`} value={`u:${u.id}:${u.id_cliente}`}>
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {u.nombre}
                      </Text>
                      <Text size="xs" c="inherit" opacity={0.75} truncate>
                        {u.usuario} · {u.email} · {u.cliente}
                      </Text>
                    </div>
                    <Badge variant="light" radius="sm" color="gray" style={{ flexShrink: 0 }}>
                      {isRol(u.rol) ? ROLE_NAMES[u.rol] : `Rol ${u.rol}`}
                    </Badge>
                  </Group>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          ) : null}
          {pedidos.length > 0 ? (
            <Combobox.Group label="Pedidos">
              {pedidos.map((p) => (
                <Combobox.Option key={`p${p.id}`} value={`p:${p.id}`}>
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        Pedido {formatOrderNumber(p.id)} · {formatMXN(p.total)}
                      </Text>
                      <Text size="xs" c="inherit" opacity={0.75} truncate>
                        {p.nombre} ({p.usuario}) · {p.cliente} · {formatDate(p.transaction_date)}
                      </Text>
                    </div>
                    <StatusBadge status={p.status} style={{ flexShrink: 0, overflow: 'visible' }} />
                  </Group>
                </Combobox.Option>
              ))}
            </Combobox.Group>
          ) : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
