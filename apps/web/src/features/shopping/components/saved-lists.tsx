/** 'Mis listas': the buyer's saved lists, each with its item count and last change, opened by its name. */
import '@mantine/core/styles/Table.css';
import { Anchor, Button, Paper, Table, VisuallyHidden } from '@mantine/core';
import { IconChevronRight, IconListCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListEmpty, LoadError, LoadingRows } from '../../../components/ui/list-states';
import { formatDate } from '../../../lib/format';
import { listsQuery } from '../api/lists';

export function SavedLists() {
  const lists = useQuery(listsQuery());
  return (
    <Paper withBorder radius="md" shadow="xs">
      {lists.isPending ? (
        <LoadingRows label="Cargando tus listas" rows={3} />
      ) : lists.isError ? (
        <LoadError
          title="No se pudieron cargar tus listas"
          error={lists.error}
          onRetry={() => lists.refetch()}
        />
      ) : lists.data.length === 0 ? (
        <ListEmpty
          icon={<IconListCheck />}
          title="Aún no tienes listas"
          description="Guarda tu carrito o un pedido del historial con 'Guardar como lista' para repetirlo en un clic."
        />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="mis-listas">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Nombre</Table.Th>
                <Table.Th ta="right">Productos</Table.Th>
                <Table.Th>Actualizada</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Acciones</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lists.data.map((lista) => (
                <Table.Tr key={lista.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/usuario/listas/${lista.id}`} fw={600}>
                      {lista.nombre}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{lista.productos}</Table.Td>
                  <Table.Td>{formatDate(lista.actualizada)}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      component={Link}
                      to={`/usuario/listas/${lista.id}`}
                      size="xs"
                      variant="light"
                      rightSection={<IconChevronRight size={14} />}
                      aria-label={`Abrir la lista ${lista.nombre}`}
                    >
                      Abrir
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
