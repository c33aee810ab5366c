/**
 * «Datos fiscales» of a client (issue 42 item 1, decision 0128): RFC, código postal fiscal, razón social,
 * régimen fiscal and uso de CFDI from the SAT's catalogues, and the billing e-mails. The régimenes offered
 * are those of the RFC's kind and the usos those of the régimen (the one chosen stays listed, so a choice
 * that no longer fits shows with its message). The distributor's client form and the client
 * administrator's dialog show it.
 */
import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  CORREOS_FACTURACION_MAX,
  catalogLabel,
  normalizeRfc,
  RAZON_SOCIAL_MAX,
  REGIMENES_FISCALES,
  regimenesPara,
  TIPO_PERSONA_NOMBRES,
  tipoPersona,
  USOS_CFDI,
  usosPara,
} from '@portal/shared/domain/fiscal';
import { FormSection } from '../../../components/ui/form-section';
import type { ClientFormValues } from './client-form-values';

type ClientFormApi = UseFormReturnType<ClientFormValues>;

/** A catalogue's entries as Select options, with the chosen one kept even when the filter leaves it out. */
function options(
  entries: readonly { clave: string; nombre: string }[],
  all: readonly { clave: string; nombre: string }[],
  chosen: string | null,
) {
  const list =
    chosen && !entries.some((e) => e.clave === chosen) ? all.filter((e) => e.clave === chosen) : [];
  return [...list, ...entries].map((e) => ({ value: e.clave, label: catalogLabel(e) }));
}

/** A catalogue's Select: typed to search, cleared to choose none. */
const CATALOG_SELECT = {
  searchable: true,
  clearable: true,
  nothingFoundMessage: 'Ninguna clave coincide',
  comboboxProps: { withinPortal: true },
} as const;

/** What the section says under its title (and the client administrator's dialog under its own). */
export const FISCAL_SECTION_DESCRIPTION =
  'Para las facturas (CFDI 4.0): como aparecen en la Constancia de Situación Fiscal.';

/** The client form's «Datos fiscales». */
export function FiscalSection({ form }: { form: ClientFormApi }) {
  return (
    <FormSection title="Datos fiscales" description={FISCAL_SECTION_DESCRIPTION}>
      <FiscalFields form={form} />
    </FormSection>
  );
}

/** The fields alone (a dialog titled «Datos fiscales» shows them without the section's heading). */
export function FiscalFields({ form }: { form: ClientFormApi }) {
  const { rfc, regimen_fiscal: regimen, uso_cfdi: uso } = form.values;
  const tipo = tipoPersona(normalizeRfc(rfc));
  const rfcInput = form.getInputProps('rfc');
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label="RFC"
          description={
            tipo ? `De ${TIPO_PERSONA_NOMBRES[tipo]}` : '12 caracteres (persona moral) o 13 (física)'
          }
          maxLength={16}
          autoComplete="off"
          spellCheck={false}
          {...rfcInput}
          onChange={(event) => form.setFieldValue('rfc', event.currentTarget.value.toUpperCase())}
        />
        <TextInput
          label="Código postal fiscal"
          description="El de su domicilio fiscal"
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          {...form.getInputProps('cp_fiscal')}
        />
      </SimpleGrid>
      <TextInput
        label="Razón social"
        description="Tal como está registrada ante el SAT"
        maxLength={RAZON_SOCIAL_MAX}
        autoComplete="off"
        {...form.getInputProps('razon_social')}
      />
      <Select
        label="Régimen fiscal"
        description={tipo ? `Catálogo del SAT, los de ${TIPO_PERSONA_NOMBRES[tipo]}` : 'Catálogo del SAT'}
        placeholder="Sin régimen"
        data={options(regimenesPara(tipo), REGIMENES_FISCALES, regimen)}
        {...CATALOG_SELECT}
        {...form.getInputProps('regimen_fiscal')}
      />
      <Select
        label="Uso de CFDI"
        description={regimen ? `Catálogo del SAT, los que permite el régimen ${regimen}` : 'Catálogo del SAT'}
        placeholder="Sin uso de CFDI"
        data={options(usosPara(regimen), USOS_CFDI, uso)}
        {...CATALOG_SELECT}
        {...form.getInputProps('uso_cfdi')}
      />
      <TextInput
        label="Correos de facturación"
        description={`Hasta ${CORREOS_FACTURACION_MAX}, separados por comas`}
        placeholder="facturas@empresa.com.mx"
        inputMode="email"
        autoComplete="off"
        spellCheck={false}
        {...form.getInputProps('correos_facturacion')}
      />
    </>
  );
}
