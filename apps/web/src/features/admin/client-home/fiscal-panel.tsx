/**
 * «Datos fiscales» on «Mi empresa» (decision 0128): the client's RFC (with its kind of person), razón
 * social, régimen fiscal and uso de CFDI with the SAT catalogue's names, código postal fiscal and billing
 * e-mails; with `fiscales`, «Editar datos fiscales» opens the client form's section in a dialog.
 */
import { Box, Button, Paper, SimpleGrid, Text } from '@mantine/core';
import {
  catalogLabel,
  regimenFiscal,
  TIPO_PERSONA_NOMBRES,
  tipoPersona,
  usoCfdi,
} from '@portal/shared/domain/fiscal';
import type { ClientDto } from '@portal/shared/schemas/clients';
import { IconPencil, IconReceipt } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { PanelTitle } from './panel-title';

// The dialog and its form, loaded when opened.
const ClientFiscalDialog = lazy(() =>
  import('../clients/client-fiscal-dialog').then((m) => ({ default: m.ClientFiscalDialog })),
);

/** A code with its catalogue name ("601 · General de Ley Personas Morales"), or the code alone if unknown. */
function named(code: string | null, find: (c: string) => { clave: string; nombre: string } | undefined) {
  if (code === null) return null;
  const entry = find(code);
  return entry ? catalogLabel(entry) : code;
}

function rows(client: ClientDto): [string, string | null][] {
  const tipo = tipoPersona(client.rfc);
  return [
    ['RFC', client.rfc && (tipo ? `${client.rfc} (${TIPO_PERSONA_NOMBRES[tipo]})` : client.rfc)],
    ['Razón social', client.razon_social],
    ['Régimen fiscal', named(client.regimen_fiscal, regimenFiscal)],
    ['Uso de CFDI', named(client.uso_cfdi, usoCfdi)],
    ['Código postal fiscal', client.cp_fiscal],
    // One address a line.
    ['Correos de facturación', client.correos_facturacion.join('\n') || null],
  ];
}

export function FiscalPanel({ client, editable }: { client: ClientDto; editable: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" component="section" aria-labelledby="datos-fiscales">
      <PanelTitle id="datos-fiscales" title="Datos fiscales" color="grape" icon={<IconReceipt size={20} />} />
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {editable
          ? 'Los de tu empresa para sus facturas (CFDI 4.0), como aparecen en su Constancia de Situación Fiscal.'
          : 'Los de tu empresa para sus facturas (CFDI 4.0). Para cambiarlos, pídelo a tu distribuidor.'}
      </Text>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm" m={0}>
        {rows(client).map(([label, value]) => (
          <Box key={label} miw={0}>
            <Text component="dt" size="xs" fw={600} c="dimmed">
              {label}
            </Text>
            <Text
              component="dd"
              size="sm"
              m={0}
              c={value ? undefined : 'dimmed'}
              style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
            >
              {value ?? 'Sin capturar'}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
      {editable ? (
        <Button
          variant="light"
          mt="md"
          leftSection={<IconPencil size={18} aria-hidden />}
          onClick={() => setOpen(true)}
        >
          Editar datos fiscales
        </Button>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <ClientFiscalDialog client={client} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </Paper>
  );
}
