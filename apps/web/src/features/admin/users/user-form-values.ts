/**
 * The user form's values: what the form holds for a new or an edited user, the schema
 * it is checked with (the shared UserBody, asking for what the API would default) and the body it becomes.
 */

import { MIN_USER_BUDGET_PESOS } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { ClientDto } from '@portal/shared/schemas/clients';
import type { AdminCategoryDto } from '@portal/shared/schemas/inventory';
import { UserBody, type UserDto } from '@portal/shared/schemas/users';
import type { ReactNode } from 'react';
import { lazyValue } from '../../../lib/lazy-value';

export interface UserFormValues {
  usuario: string;
  user_id: string;
  nombre: string;
  rol: string | null;
  direccion_entrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  area: string;
  localidad: string;
  region: string;
  coordinacion: string;
  active_week: string | null;
  entrega_week: string | null;
  activo: boolean;
  limite_de_compras: number | string;
  presupuesto_default: number | string;
  /** Category mode: category id -> budget (pesos). */
  categorias: Record<string, number | string>;
  /** The área (cost centre, decision 0123) whose budget the user's orders also spend; null: none. */
  id_area: string | null;
}

export const TEXT_FIELDS = [
  'calle',
  'colonia',
  'ciudad',
  'cp',
  'estado',
  'area',
  'localidad',
  'region',
  'coordinacion',
] as const;

function parseCategorias(text: string): Record<string, number> {
  try {
    const list: unknown = JSON.parse(text || '[]');
    if (!Array.isArray(list)) return {};
    const out: Record<string, number> = {};
    for (const item of list) {
      if (item && typeof item === 'object' && 'id' in item && 'presupuesto' in item) {
        out[String(item.id)] = Number(item.presupuesto) || 0;
      }
    }
    return out;
  } catch {
    return {};
  }
}

export function initialValues(client: ClientDto, user: UserDto | null): UserFormValues {
  if (user) {
    return {
      usuario: user.usuario,
      user_id: user.user_id,
      nombre: user.nombre,
      rol: String(user.rol),
      direccion_entrega: user.direccion_entrega,
      calle: user.calle,
      colonia: user.colonia,
      ciudad: user.ciudad,
      cp: user.cp,
      estado: user.estado,
      area: user.area,
      localidad: user.localidad,
      region: user.region,
      coordinacion: user.coordinacion,
      active_week: user.active_week ? String(user.active_week) : null,
      entrega_week: user.entrega_week ? String(user.entrega_week) : null,
      activo: user.activo,
      limite_de_compras: user.limite_de_compras,
      presupuesto_default: user.presupuesto_default,
      categorias: parseCategorias(user.categorias),
      id_area: user.id_area === null ? null : String(user.id_area),
    };
  }
  return {
    usuario: '',
    user_id: '',
    nombre: '',
    rol: '1',
    direccion_entrega: '',
    calle: '',
    colonia: '',
    ciudad: '',
    cp: '',
    estado: '',
    area: '',
    localidad: '',
    region: '',
    coordinacion: '',
    active_week: null,
    entrega_week: null,
    activo: true,
    limite_de_compras: client.limite_de_compras,
    presupuesto_default: client.presupuesto_default >= 1 ? client.presupuesto_default : '',
    categorias: {},
    id_area: null,
  };
}

export const amount = (v: number | string) => (typeof v === 'number' ? v : Number(v) || 0);

/**
 * The form asks for what the API would otherwise default: a purchase limit always and, in regular mode, a
 * budget of at least MIN_USER_BUDGET_PESOS, the minimum the server's users.service applies to that mode.
 */
export const CategoryModeUser = lazyValue(() =>
  UserBody.extend({
    limite_de_compras: UserBody.shape.limite_de_compras.refine(
      (v) => v !== undefined,
      MSG.limiteComprasInvalido,
    ),
  }),
);
export const RegularModeUser = lazyValue(() =>
  CategoryModeUser.extend({
    presupuesto_default: UserBody.shape.presupuesto_default.refine(
      (v) => v !== undefined && v >= MIN_USER_BUDGET_PESOS,
      MSG.presupuestoUsuarioMinimo,
    ),
  }),
);

/**
 * The form's values as the body of POST/PUT /api/usuarios, before the schema reads them: the budget of the
 * client's mode (in category mode, the known categories above 0).
 */
export function toBody(
  values: UserFormValues,
  client: ClientDto,
  categories: AdminCategoryDto[] | undefined,
) {
  const { categorias, presupuesto_default, ...rest } = values;
  const categoryMode = client.modo_presupuesto === 'categoria';
  const known = new Set((categories ?? []).map((c) => String(c.id)));
  return {
    ...rest,
    id_cliente: client.id,
    presupuesto_default: categoryMode ? undefined : presupuesto_default,
    categorias: categoryMode
      ? Object.entries(categorias)
          .filter(([id, v]) => known.has(id) && amount(v) > 0)
          .map(([id, v]) => ({ id: Number(id), presupuesto: amount(v) }))
      : undefined,
  };
}

/** The schema names a category budget by its place in the list sent; the form by the category's id. */
export function byCategoryId(
  errors: Record<string, ReactNode>,
  sent: { id: number }[] | undefined,
): Record<string, ReactNode> {
  return Object.fromEntries(
    Object.entries(errors).map(([path, message]) => {
      const match = /^categorias\.(\d+)/.exec(path);
      const category = match ? sent?.[Number(match[1])] : undefined;
      return [category ? `categorias.${category.id}` : path, message];
    }),
  );
}
