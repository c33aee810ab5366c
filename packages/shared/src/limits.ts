/**
 * Limits shared by the server and the web, declared once: id bounds, amounts, page sizes, search length,
 * byte limits, link lifetimes. The file size limits of uploads live with the file rules (domain/files.ts).
 * The e-mail length lives with the e-mail check (domain/email.ts, EMAIL_MAX_LENGTH).
 */

/** Largest id a path, query or body may carry (PostgreSQL `integer`). */
export const MAX_ID = 2147483647;
/** Largest page number a list accepts. */
export const MAX_PAGE = 1_000_000;
/** Largest amount accepted (pesos): far above any budget, far below the safe-integer limit in centavos. */
export const MAX_PESOS = 1_000_000_000;
/** Smallest monthly budget of a regular-mode user (pesos): $1.00 (docs/domain.md "Budgets and purchase limits"). */
export const MIN_USER_BUDGET_PESOS = 1;

export const CLIENTS_PER_PAGE = 10;
export const USERS_PER_PAGE = 10;
export const USER_PRODUCTS_PER_PAGE = 20;
export const WEEKS_PER_PAGE = 5;
export const INVENTORY_PER_PAGE = 24;
/** Most products one POST /api/productos/activar_lote takes. */
export const INVENTORY_BATCH_MAX = 500;
export const IMPORTS_PER_PAGE = 10;
export const LOGS_PER_PAGE = 15;
/** The authorizers' order list (GET /api/pedidos). */
export const ORDERS_PER_PAGE = 50;
/** The administrator's read-only order list (GET /api/admin/pedidos). */
export const ADMIN_ORDERS_PER_PAGE = 20;
/** Most orders one bulk approve or cancel call takes (POST /api/pedidos/aprobar-lote, cancelar-lote). */
export const BULK_ORDERS_MAX = 50;

/** Largest page size a list accepts when the caller asks for one (`per_page`). */
export const CLIENTS_MAX_PER_PAGE = 1000;
/** Approval reminders (decision 0051): hours an order waits before the daily digest names it; 0 = off. */
export const RECORDATORIO_HORAS_DEFAULT = 24;
export const RECORDATORIO_HORAS_MAX = 720;
/**
 * Rules by amount (decision 0100): hours before an order whose orders of the same buyer add to its total;
 * 0 = each order alone.
 */
export const VENTANA_REGLAS_HORAS_DEFAULT = 24;
export const VENTANA_REGLAS_HORAS_MAX = 720;
/** Escalation (decision 0113): hours an order waits on its level before it escalates; 0 = off (the default). */
export const ESCALAR_HORAS_MAX = 720;
/** Budget alerts (decision 0054): the client's thresholds, percentages of the monthly budget. */
export const ALERTAS_PRESUPUESTO_DEFAULT: readonly number[] = [80, 100];
export const ALERTAS_PRESUPUESTO_MAX = 3;
export const USER_PRODUCTS_MAX_PER_PAGE = 200;
export const INVENTORY_MAX_PER_PAGE = 100;
/** Longest search text (`q`) a list accepts. */
export const SEARCH_MAX_LENGTH = 100;

/** Largest CSV import file (the server refuses it, the web does not even send it). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** How long the single-use link of a new account works (docs/domain.md "Accounts and passwords"). */
export const WELCOME_LINK_TTL_MS = 72 * 3_600_000;
/** How long a password-recovery link works. */
export const RECOVERY_LINK_TTL_MS = 60 * 60_000;

/** Longest comment on an order, in characters after trimming (decision 0047). */
export const COMENTARIO_MAX = 1000;
/** Comments an order may have (issue 38, finding 6). */
export const COMENTARIOS_POR_PEDIDO = 200;
/** Comments one person may write in an hour, on all orders. */
export const COMENTARIOS_POR_HORA = 30;
/** Comments an order's answer carries (the latest ones); older ones come a page at a time. */
export const COMENTARIOS_PAGINA = 50;
