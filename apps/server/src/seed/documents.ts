/** The demo documents of each client: the purchase calendar and the buying manual, as one-page PDFs. */
import { MONTH_NAMES } from '@portal/shared/domain/months';
import { formatIsoDate } from '@portal/shared/domain/time';
import type { DemoClient } from './data.ts';
import { simplePdf } from './simple-pdf.ts';

export function calendarPdf(
  client: Pick<DemoClient, 'nombre' | 'emailDomain'>,
  today: string,
  week: { inicio: string; fin: string },
): Buffer {
  const year = Number(today.slice(0, 4));
  const lines = [
    `Durante las semanas de compra el portal está abierto para registrar pedidos.`,
    'Fuera de ellas no es posible iniciar sesión como usuario comprador.',
    '',
    `Semana de compra vigente: del ${formatIsoDate(week.inicio)} al ${formatIsoDate(week.fin)}.`,
    '',
    `Primera semana de compra de cada mes (${year}):`,
  ];
  for (let m = 0; m < 12; m++) {
    const first = new Date(Date.UTC(year, m, 1));
    const offset = (8 - first.getUTCDay()) % 7; // days until the first Monday
    const monday = 1 + offset;
    const month = MONTH_NAMES[m] ?? '';
    const label = month.charAt(0).toUpperCase() + month.slice(1);
    lines.push(`  •  ${label}: del lunes ${monday} al viernes ${monday + 4} de ${month}`);
  }
  lines.push(
    '',
    'Los pedidos aprobados se entregan en la semana de entrega asignada a cada usuario.',
    `Dudas: compras@${client.emailDomain}`,
  );
  return simplePdf(`Calendario de compras ${year} — ${client.nombre}`, lines);
}

export function manualPdf(client: Pick<DemoClient, 'nombre' | 'emailDomain' | 'modo'>): Buffer {
  const budgetLine =
    client.modo === 'categoria'
      ? 'Cada categoría tiene su propio presupuesto mensual; la barra lateral muestra lo utilizado y lo asignado.'
      : 'Tu presupuesto es mensual e incluye el IVA; lo ves en las tarjetas de la página principal.';
  return simplePdf(`Manual de compra — ${client.nombre}`, [
    '¿Cómo hago un pedido?',
    '',
    '1. Inicia sesión con tu usuario y contraseña durante una semana de compra.',
    '2. En el catálogo busca el artículo por nombre, clave o precio, o elige una categoría.',
    '3. Indica la cantidad (respeta el límite por artículo) y pulsa «Agregar al carrito».',
    '4. Revisa tu carrito: puedes cambiar cantidades o eliminar artículos.',
    '5. Pulsa «Comprar» y confirma. Tu pedido se enviará a revisión.',
    '',
    budgetLine,
    'El número de pedidos por mes puede estar limitado por tu empresa.',
    '',
    'Seguimiento',
    '',
    '•  En «Historial» ves el estatus de cada pedido: pendiente, en espera, aprobado o cancelado.',
    '•  Un pedido cancelado deja de contar contra tu presupuesto.',
    '',
    `¿Necesitas ayuda? Escribe a compras@${client.emailDomain}.`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------
