import { ROLES } from '@portal/shared/domain/roles';
import { addDays, businessDate, formatIsoDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  IMAGE_MAX_BYTES,
  insertPreparedFiles,
  PDF_MAX_BYTES,
  type PreparedFile,
  prepareFile,
  prepareImageWithThumb,
} from '../lib/files.ts';
import { hashPassword } from '../lib/passwords.ts';
import { simplePdf } from '../lib/simple-pdf.ts';
import { sealTotpSecret } from '../lib/totp.ts';
import type { Db } from './client.ts';
import {
  categories,
  clients,
  products,
  userCategoryBudgets,
  userProducts,
  users,
  weeks,
} from './schema/index.ts';

/** Password of every demo client user. */
export const DEMO_PASSWORD = 'Demo#2026';
/** Password of the demo administrator. */
export const ADMIN_DEMO_PASSWORD = 'Admin#2026';
/**
 * The published TOTP secret of the demo administrator `admin2fa` (README): add it to an authenticator
 * app, or compute its codes, to try the two-step sign-in. Demo data only.
 */
export const ADMIN_2FA_DEMO_SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';

export interface DemoSignIn {
  usuario: string;
  password: string;
  rol: number;
  cliente: string | null;
}

export interface SeedDemoOptions {
  /** Business time zone (IANA), for the access week around today. */
  tz: string;
  now?: Date;
  /** The app's key for secrets at rest (AppKeys.encryption): the demo TOTP secret is stored encrypted. */
  encryptionKey: Buffer;
}

// ---------------------------------------------------------------------------------------------
// Demo data
// ---------------------------------------------------------------------------------------------

interface DemoCategory {
  nombre: string;
  icono: string;
  /** Base colour of its product pictures. */
  color: string;
}

interface DemoProduct {
  /** Index into the client's categories. */
  cat: number;
  nombre: string;
  descripcion: string;
  unidad: string;
  /** Centavos. */
  precio: number;
  impuesto?: boolean;
}

interface Address {
  direccionEntrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  localidad: string;
  region: string;
}

interface DemoUser {
  usuario: string;
  nombre: string;
  rol: 1 | 2 | 3;
  area: string;
  coordinacion: string;
  activeWeek: number;
  entregaWeek: number;
  presupuestoDefault: number;
  /** Category budgets (category mode): category index -> centavos. */
  categoryBudgets?: Record<number, number>;
}

interface DemoClient {
  nombre: string;
  /** Prefix of clave_interna (DI-0001). */
  prefix: string;
  /** Prefix of the client's own product key. */
  clientePrefix: string;
  emailDomain: string;
  color: string;
  color2: string;
  modo: 'regular' | 'categoria';
  cantidadAutorizadores: 0 | 1 | 2;
  limiteDeCompras: number;
  presupuestoDefault: number;
  mostrarPresupuesto: boolean;
  logo: 'gear' | 'grid';
  address: Address;
  categories: DemoCategory[];
  products: DemoProduct[];
  users: DemoUser[];
}

const DEMO_INDUSTRIAL: DemoClient = {
  nombre: 'Demo Industrial',
  prefix: 'DI',
  clientePrefix: 'MAT',
  emailDomain: 'demo-industrial.mx',
  color: '#0b7285',
  color2: '#5f3dc4',
  modo: 'regular',
  cantidadAutorizadores: 2,
  limiteDeCompras: 4,
  presupuestoDefault: 500000,
  mostrarPresupuesto: true,
  logo: 'gear',
  address: {
    direccionEntrega: 'Planta Escobedo, almacén general (andén 3)',
    calle: 'Av. Industrial 1450',
    colonia: 'Parque Industrial Escobedo',
    ciudad: 'General Escobedo',
    cp: '66062',
    estado: 'Nuevo León',
    localidad: 'Planta Escobedo',
    region: 'Noreste',
  },
  categories: [
    { nombre: 'Papelería', icono: 'IconPencil', color: '#1c7ed6' },
    { nombre: 'Herramientas', icono: 'IconTool', color: '#e8590c' },
    { nombre: 'Limpieza', icono: 'IconSpray', color: '#0ca678' },
    { nombre: 'Cómputo', icono: 'IconDeviceDesktop', color: '#5f3dc4' },
    { nombre: 'Seguridad industrial', icono: 'IconHelmet', color: '#f08c00' },
    { nombre: 'Cafetería', icono: 'IconCoffee', color: '#862e9c' },
  ],
  products: [
    {
      cat: 0,
      nombre: 'Hojas blancas tamaño carta',
      descripcion: 'Papel bond de 75 g/m², paquete con 500 hojas.',
      unidad: 'Paquete',
      precio: 11990,
    },
    {
      cat: 0,
      nombre: 'Bolígrafo tinta azul punto mediano',
      descripcion: 'Caja con 12 piezas.',
      unidad: 'Caja',
      precio: 6450,
    },
    {
      cat: 0,
      nombre: 'Cuaderno profesional de raya',
      descripcion: 'Espiral doble, 100 hojas.',
      unidad: 'Pieza',
      precio: 4890,
    },
    {
      cat: 0,
      nombre: 'Carpeta de argollas blanca 2"',
      descripcion: 'Con portada transparente y argolla en D.',
      unidad: 'Pieza',
      precio: 8975,
    },
    {
      cat: 1,
      nombre: 'Desarmador de cruz Phillips #2',
      descripcion: 'Mango ergonómico antiderrapante, punta magnética.',
      unidad: 'Pieza',
      precio: 8990,
    },
    {
      cat: 1,
      nombre: 'Cinta de aislar negra 19 mm',
      descripcion: 'Rollo de 18 m, PVC retardante a la flama.',
      unidad: 'Pieza',
      precio: 2350,
    },
    {
      cat: 1,
      nombre: 'Llave ajustable de 10"',
      descripcion: 'Acero cromo-vanadio, apertura de 30 mm.',
      unidad: 'Pieza',
      precio: 24900,
    },
    {
      cat: 1,
      nombre: 'Flexómetro de 5 m',
      descripcion: 'Cinta de 25 mm con freno y clip para cinturón.',
      unidad: 'Pieza',
      precio: 13450,
    },
    {
      cat: 2,
      nombre: 'Desengrasante industrial biodegradable',
      descripcion: 'Concentrado para pisos y maquinaria.',
      unidad: 'Litro',
      precio: 18990,
    },
    {
      cat: 2,
      nombre: 'Toallas de papel interdobladas',
      descripcion: 'Caja con 20 paquetes de 100 hojas.',
      unidad: 'Caja',
      precio: 58900,
    },
    {
      cat: 2,
      nombre: 'Bolsa para basura negra 90 x 120 cm',
      descripcion: 'Paquete con 10 piezas, calibre grueso.',
      unidad: 'Paquete',
      precio: 7420,
    },
    {
      cat: 2,
      nombre: 'Jabón líquido para manos',
      descripcion: 'Antibacterial, aroma neutro.',
      unidad: 'Litro',
      precio: 5875,
    },
    {
      cat: 3,
      nombre: 'Mouse óptico USB',
      descripcion: 'Tres botones, 1200 dpi, cable de 1.5 m.',
      unidad: 'Pieza',
      precio: 18990,
    },
    {
      cat: 3,
      nombre: 'Teclado USB en español',
      descripcion: 'Distribución latinoamericana, resistente a derrames.',
      unidad: 'Pieza',
      precio: 32900,
    },
    {
      cat: 3,
      nombre: 'Memoria USB 64 GB',
      descripcion: 'USB 3.2 con tapa.',
      unidad: 'Pieza',
      precio: 21450,
    },
    {
      cat: 3,
      nombre: 'Tóner para impresora láser negro',
      descripcion: 'Rendimiento aproximado de 3,000 páginas.',
      unidad: 'Pieza',
      precio: 149900,
    },
    {
      cat: 4,
      nombre: 'Casco de seguridad tipo I clase E',
      descripcion: 'Con suspensión de matraca de 4 puntos.',
      unidad: 'Pieza',
      precio: 21990,
    },
    {
      cat: 4,
      nombre: 'Guantes de nitrilo talla M',
      descripcion: 'Caja con 100 piezas, sin polvo.',
      unidad: 'Caja',
      precio: 24500,
    },
    {
      cat: 4,
      nombre: 'Lentes de seguridad antiempañantes',
      descripcion: 'Mica transparente con protección UV.',
      unidad: 'Pieza',
      precio: 6990,
    },
    {
      cat: 4,
      nombre: 'Tapones auditivos desechables',
      descripcion: 'Caja con 200 pares, NRR 32 dB.',
      unidad: 'Caja',
      precio: 89900,
    },
    {
      cat: 5,
      nombre: 'Café molido tostado medio',
      descripcion: 'Bolsa de 1 kg, café de Veracruz.',
      unidad: 'Paquete',
      precio: 28990,
      impuesto: false,
    },
    {
      cat: 5,
      nombre: 'Azúcar estándar',
      descripcion: 'Bolsa de 2 kg.',
      unidad: 'Paquete',
      precio: 6490,
      impuesto: false,
    },
    {
      cat: 5,
      nombre: 'Agua purificada en garrafón de 20 L',
      descripcion: 'Entrega en el área de cafetería.',
      unidad: 'Pieza',
      precio: 4200,
      impuesto: false,
    },
    {
      cat: 5,
      nombre: 'Vasos térmicos desechables 12 oz',
      descripcion: 'Paquete con 50 piezas.',
      unidad: 'Paquete',
      precio: 8950,
    },
  ],
  users: [
    {
      usuario: 'autorizador',
      nombre: 'Laura Méndez Ortiz',
      rol: 2,
      area: 'Compras',
      coordinacion: 'Administración',
      activeWeek: 1,
      entregaWeek: 2,
      presupuestoDefault: 500000,
    },
    {
      usuario: 'superautorizador',
      nombre: 'Arturo Domínguez Peña',
      rol: 3,
      area: 'Dirección de planta',
      coordinacion: 'Dirección',
      activeWeek: 1,
      entregaWeek: 2,
      presupuestoDefault: 500000,
    },
    {
      usuario: 'usuario',
      nombre: 'María Fernanda López García',
      rol: 1,
      area: 'Mantenimiento',
      coordinacion: 'Operaciones',
      activeWeek: 1,
      entregaWeek: 2,
      presupuestoDefault: 500000,
    },
    {
      usuario: 'usuario2',
      nombre: 'José Luis Hernández Ramírez',
      rol: 1,
      area: 'Almacén',
      coordinacion: 'Logística',
      activeWeek: 2,
      entregaWeek: 3,
      presupuestoDefault: 500000,
    },
  ],
};

const DEMO_CATEGORIAS: DemoClient = {
  nombre: 'Demo Categorías',
  prefix: 'DC',
  clientePrefix: 'SKU',
  emailDomain: 'demo-categorias.mx',
  color: '#c2255c',
  color2: '#f76707',
  modo: 'categoria',
  cantidadAutorizadores: 1,
  limiteDeCompras: -1,
  presupuestoDefault: 0,
  mostrarPresupuesto: true,
  logo: 'grid',
  address: {
    direccionEntrega: 'Oficinas corporativas, recepción piso 4',
    calle: 'Av. Insurgentes Sur 1602',
    colonia: 'Crédito Constructor',
    ciudad: 'Benito Juárez',
    cp: '03940',
    estado: 'Ciudad de México',
    localidad: 'Corporativo CDMX',
    region: 'Centro',
  },
  categories: [
    { nombre: 'Papelería', icono: 'IconPencil', color: '#1971c2' },
    { nombre: 'Uniformes', icono: 'IconShirt', color: '#2f9e44' },
    { nombre: 'Botiquín', icono: 'IconFirstAidKit', color: '#e03131' },
    { nombre: 'Limpieza', icono: 'IconSpray', color: '#099268' },
    { nombre: 'Cafetería', icono: 'IconCoffee', color: '#9c36b5' },
  ],
  products: [
    {
      cat: 0,
      nombre: 'Marcatextos amarillo fluorescente',
      descripcion: 'Caja con 10 piezas, punta biselada.',
      unidad: 'Caja',
      precio: 9890,
    },
    {
      cat: 0,
      nombre: 'Notas adhesivas 76 x 76 mm',
      descripcion: 'Paquete con 12 blocks de colores.',
      unidad: 'Paquete',
      precio: 15490,
    },
    {
      cat: 0,
      nombre: 'Folder tamaño carta color crema',
      descripcion: 'Caja con 100 piezas.',
      unidad: 'Caja',
      precio: 21900,
    },
    {
      cat: 0,
      nombre: 'Grapas estándar 26/6',
      descripcion: 'Caja con 5,000 piezas.',
      unidad: 'Caja',
      precio: 3290,
    },
    {
      cat: 0,
      nombre: 'Engrapadora de escritorio',
      descripcion: 'Capacidad de 25 hojas, cuerpo metálico.',
      unidad: 'Pieza',
      precio: 14575,
    },
    {
      cat: 1,
      nombre: 'Camisa de trabajo manga larga',
      descripcion: 'Gabardina azul marino con logotipo bordado.',
      unidad: 'Pieza',
      precio: 38900,
    },
    {
      cat: 1,
      nombre: 'Pantalón de mezclilla industrial',
      descripcion: 'Corte recto, costuras reforzadas.',
      unidad: 'Pieza',
      precio: 45900,
    },
    {
      cat: 1,
      nombre: 'Chaleco de alta visibilidad',
      descripcion: 'Naranja con cintas reflejantes.',
      unidad: 'Pieza',
      precio: 12990,
    },
    {
      cat: 1,
      nombre: 'Botas de seguridad con casquillo',
      descripcion: 'Piel, suela dieléctrica.',
      unidad: 'Par',
      precio: 119900,
    },
    {
      cat: 1,
      nombre: 'Gorra bordada con logotipo',
      descripcion: 'Ajustable, algodón.',
      unidad: 'Pieza',
      precio: 9450,
    },
    {
      cat: 2,
      nombre: 'Paracetamol 500 mg',
      descripcion: 'Caja con 20 tabletas.',
      unidad: 'Caja',
      precio: 3990,
      impuesto: false,
    },
    {
      cat: 2,
      nombre: 'Ibuprofeno 400 mg',
      descripcion: 'Caja con 10 tabletas.',
      unidad: 'Caja',
      precio: 4550,
      impuesto: false,
    },
    {
      cat: 2,
      nombre: 'Gasas estériles 10 x 10 cm',
      descripcion: 'Paquete con 100 piezas.',
      unidad: 'Paquete',
      precio: 11275,
    },
    {
      cat: 2,
      nombre: 'Venda elástica de 10 cm',
      descripcion: 'Rollo de 5 m.',
      unidad: 'Pieza',
      precio: 2875,
    },
    {
      cat: 2,
      nombre: 'Alcohol etílico al 70%',
      descripcion: 'Botella de 1 L.',
      unidad: 'Litro',
      precio: 6990,
    },
    {
      cat: 3,
      nombre: 'Blanqueador con cloro',
      descripcion: 'Botella de 1 L.',
      unidad: 'Litro',
      precio: 2450,
    },
    {
      cat: 3,
      nombre: 'Limpiador multiusos aroma lavanda',
      descripcion: 'Presentación de 3.78 L.',
      unidad: 'Galón',
      precio: 9890,
    },
    {
      cat: 3,
      nombre: 'Franela roja',
      descripcion: 'Paquete con 6 piezas de 50 x 70 cm.',
      unidad: 'Paquete',
      precio: 7590,
    },
    {
      cat: 3,
      nombre: 'Escoba de cerdas suaves',
      descripcion: 'Con bastón metálico.',
      unidad: 'Pieza',
      precio: 8490,
    },
    {
      cat: 3,
      nombre: 'Papel higiénico jumbo',
      descripcion: 'Caja con 6 rollos de 500 m.',
      unidad: 'Caja',
      precio: 45990,
    },
    {
      cat: 4,
      nombre: 'Café soluble',
      descripcion: 'Frasco de 200 g.',
      unidad: 'Pieza',
      precio: 15990,
      impuesto: false,
    },
    {
      cat: 4,
      nombre: 'Galletas surtidas',
      descripcion: 'Caja de 1 kg.',
      unidad: 'Caja',
      precio: 10990,
      impuesto: false,
    },
    {
      cat: 4,
      nombre: 'Té surtido',
      descripcion: 'Caja con 100 sobres.',
      unidad: 'Caja',
      precio: 12450,
      impuesto: false,
    },
    {
      cat: 4,
      nombre: 'Sustituto de crema para café',
      descripcion: 'Bote de 1 kg.',
      unidad: 'Pieza',
      precio: 9890,
      impuesto: false,
    },
    {
      cat: 4,
      nombre: 'Agitadores de madera',
      descripcion: 'Paquete con 1,000 piezas.',
      unidad: 'Paquete',
      precio: 5990,
    },
  ],
  users: [
    {
      usuario: 'comprador',
      nombre: 'Ana Sofía Martínez Cruz',
      rol: 1,
      area: 'Recursos Humanos',
      coordinacion: 'Administración',
      activeWeek: 1,
      entregaWeek: 2,
      presupuestoDefault: 430000,
      categoryBudgets: { 0: 150000, 1: 200000, 2: 80000 },
    },
    {
      usuario: 'revisor',
      nombre: 'Carlos Eduardo Rivera Soto',
      rol: 2,
      area: 'Finanzas',
      coordinacion: 'Administración',
      activeWeek: 1,
      entregaWeek: 2,
      presupuestoDefault: 0,
    },
  ],
};

const DEMO_CLIENTS: readonly DemoClient[] = [DEMO_INDUSTRIAL, DEMO_CATEGORIAS];

/** Cycle of per-product quantity limits for assignments. */
const QUANTITY_LIMITS = [1, 2, 3, 5, 10] as const;

// ---------------------------------------------------------------------------------------------
// Pictures (shapes only: no text, so no fonts are needed)
// ---------------------------------------------------------------------------------------------

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Mixes a colour with another (t = 0 keeps `a`, 1 gives `b`). */
function mix(a: string, b: string, t: number): string {
  const ca = hexToRgb(a);
  const cb = hexToRgb(b);
  const out = ca.map((v, i) => Math.round(v + ((cb[i] ?? 0) - v) * t));
  return `#${out.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A small deterministic generator, so a product always gets the same picture. */
function prng(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

function polygon(sides: number, radius: number, innerRadius?: number): string {
  const count = innerRadius ? sides * 2 : sides;
  const pts: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = innerRadius && i % 2 === 1 ? innerRadius : radius;
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / count;
    pts.push(`${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

/** One of ten simple glyphs, centred on the origin. */
function glyph(kind: number, accent: string): string {
  const fill = 'fill="#ffffff" fill-opacity="0.94"';
  switch (kind % 10) {
    case 0:
      return `<circle r="105" ${fill}/><circle r="45" fill="${accent}" fill-opacity="0.55"/>`;
    case 1:
      return `<rect x="-100" y="-100" width="200" height="200" rx="30" ${fill}/><rect x="-40" y="-40" width="80" height="80" rx="12" fill="${accent}" fill-opacity="0.5"/>`;
    case 2:
      return `<polygon points="${polygon(3, 125)}" ${fill}/>`;
    case 3:
      return `<polygon points="${polygon(6, 115)}" ${fill}/><polygon points="${polygon(6, 55)}" fill="${accent}" fill-opacity="0.5"/>`;
    case 4:
      return `<polygon points="${polygon(4, 125)}" ${fill}/>`;
    case 5:
      return `<polygon points="${polygon(5, 130, 55)}" ${fill}/>`;
    case 6:
      return `<circle r="95" fill="none" stroke="#ffffff" stroke-opacity="0.94" stroke-width="42"/>`;
    case 7:
      return `<rect x="-110" y="-20" width="60" height="120" rx="10" ${fill}/><rect x="-30" y="-80" width="60" height="180" rx="10" ${fill}/><rect x="50" y="-50" width="60" height="150" rx="10" ${fill}/>`;
    case 8:
      return `<path d="M-35 -115 H35 V-35 H115 V35 H35 V115 H-35 V35 H-115 V-35 H-35 Z" ${fill}/>`;
    default:
      return `<rect x="-125" y="-55" width="250" height="110" rx="55" ${fill}/><rect x="0" y="-55" width="125" height="110" rx="0" fill="${accent}" fill-opacity="0.35"/>`;
  }
}

function productSvg(color: string, index: number, seed: string): string {
  const rnd = prng(seed);
  const light = mix(color, '#ffffff', 0.45);
  const dark = mix(color, '#000000', 0.25);
  const bubbles = Array.from({ length: 4 }, () => {
    const cx = Math.round(rnd() * 480);
    const cy = Math.round(rnd() * 480);
    const r = Math.round(40 + rnd() * 110);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#ffffff" fill-opacity="${(0.05 + rnd() * 0.08).toFixed(2)}"/>`;
  }).join('');
  const rotation = Math.round(rnd() * 40 - 20);
  const scale = (0.85 + rnd() * 0.2).toFixed(2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#bg)"/>${bubbles}
<ellipse cx="240" cy="392" rx="130" ry="18" fill="#000000" fill-opacity="0.12"/>
<g transform="translate(240 232) rotate(${rotation}) scale(${scale})">${glyph(index, dark)}</g>
</svg>`;
}

function logoSvg(client: DemoClient): string {
  const { color, color2 } = client;
  let mark: string;
  if (client.logo === 'gear') {
    const teeth = Array.from(
      { length: 8 },
      (_, i) => `<rect x="-18" y="-98" width="36" height="40" rx="6" transform="rotate(${i * 45})"/>`,
    ).join('');
    mark = `<g fill="#ffffff">${teeth}<circle r="72"/></g><circle r="30" fill="${color}"/>`;
  } else {
    mark = `<g fill="#ffffff"><rect x="-80" y="-80" width="72" height="72" rx="14"/><rect x="8" y="-80" width="72" height="72" rx="14" fill-opacity="0.75"/><rect x="-80" y="8" width="72" height="72" rx="14" fill-opacity="0.75"/><rect x="8" y="8" width="72" height="72" rx="14" fill-opacity="0.5"/></g>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320" viewBox="0 0 320 320">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color2}"/></linearGradient></defs>
<rect x="8" y="8" width="304" height="304" rx="64" fill="url(#g)"/>
<g transform="translate(160 160)">${mark}</g>
</svg>`;
}

async function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

function calendarPdf(client: DemoClient, today: string, week: { inicio: string; fin: string }): Buffer {
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
    const month = MONTHS[m] ?? '';
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

function manualPdf(client: DemoClient): Buffer {
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

interface PreparedClient {
  logo: PreparedFile;
  calendario: PreparedFile;
  manual: PreparedFile;
  productImages: { original: PreparedFile; thumb: PreparedFile }[];
  week: { inicio: string; fin: string };
}

async function prepareClientFiles(client: DemoClient, today: string): Promise<PreparedClient> {
  const week = { inicio: addDays(today, -2), fin: addDays(today, 4) };
  const [logo, calendario, manual, productImages] = await Promise.all([
    svgToPng(logoSvg(client)).then((data) =>
      prepareFile({ data, kind: 'imagen', idCliente: null, allowed: ['image'], maxBytes: IMAGE_MAX_BYTES }),
    ),
    prepareFile({
      data: calendarPdf(client, today, week),
      kind: 'documento',
      idCliente: null,
      allowed: ['pdf'],
      maxBytes: PDF_MAX_BYTES,
    }),
    prepareFile({
      data: manualPdf(client),
      kind: 'documento',
      idCliente: null,
      allowed: ['pdf'],
      maxBytes: PDF_MAX_BYTES,
    }),
    Promise.all(
      client.products.map(async (p, i) => {
        const category = client.categories[p.cat];
        if (!category) throw new Error(`Categoría ${p.cat} inexistente en ${client.nombre}`);
        const png = await svgToPng(productSvg(category.color, i, `${client.prefix}-${i}-${p.nombre}`));
        return prepareImageWithThumb({ data: png, idCliente: null });
      }),
    ),
  ]);
  return { logo, calendario, manual, productImages, week };
}

function clave(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(4, '0')}`;
}

/**
 * Creates the demo data in one transaction: an administrator and two clients ("Demo Industrial" in
 * regular budget mode with two authorizers, "Demo Categorías" in category mode with one), with
 * categories, products with pictures, users, assignments, documents and an access week around today.
 */
export async function seedDemo(db: Db, opts: SeedDemoOptions): Promise<{ signIns: DemoSignIn[] }> {
  const now = opts.now ?? new Date();
  const today = businessDate(now, opts.tz);

  // The slow work (password hashing, pictures) runs in parallel before the transaction.
  const [demoHash, adminHash, prepared] = await Promise.all([
    hashPassword(DEMO_PASSWORD),
    hashPassword(ADMIN_DEMO_PASSWORD),
    Promise.all(DEMO_CLIENTS.map((c) => prepareClientFiles(c, today))),
  ]);

  const signIns: DemoSignIn[] = [
    { usuario: 'admin', password: ADMIN_DEMO_PASSWORD, rol: 4, cliente: null },
    { usuario: 'admin2fa', password: ADMIN_DEMO_PASSWORD, rol: 4, cliente: null },
  ];

  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      idCliente: null,
      usuario: 'admin',
      email: 'admin@portal-de-compras.mx',
      nombre: 'Administrador del portal',
      rol: 4,
      passwordHash: adminHash,
      passwordChangedAt: now,
      passwordTemporary: false,
    });
    // A second administrator with two-factor sign-in already active (its secret is in the README).
    const [admin2fa] = await tx
      .insert(users)
      .values({
        idCliente: null,
        usuario: 'admin2fa',
        email: 'admin2fa@portal-de-compras.mx',
        nombre: 'Administradora con verificación en dos pasos',
        rol: 4,
        passwordHash: adminHash,
        passwordChangedAt: now,
        passwordTemporary: false,
        totpEnabledAt: now,
      })
      .returning({ id: users.id });
    await tx
      .update(users)
      .set({ totpSecret: sealTotpSecret(opts.encryptionKey, admin2fa!.id, ADMIN_2FA_DEMO_SECRET) })
      .where(eq(users.id, admin2fa!.id));

    for (const [ci, client] of DEMO_CLIENTS.entries()) {
      const files = prepared[ci]!;
      const [createdClient] = await tx
        .insert(clients)
        .values({
          nombre: client.nombre,
          color: client.color,
          color2: client.color2,
          presupuestoDefault: client.presupuestoDefault,
          cantidadAutorizadores: client.cantidadAutorizadores,
          limiteDeCompras: client.limiteDeCompras,
          modoPresupuesto: client.modo,
          mostrarPresupuestoAUsuarios: client.mostrarPresupuesto,
        })
        .returning({ id: clients.id });
      const idCliente = createdClient!.id;

      const owned = (f: PreparedFile): PreparedFile => ({ ...f, idCliente });
      await insertPreparedFiles(tx, [
        owned(files.logo),
        owned(files.calendario),
        owned(files.manual),
        ...files.productImages.flatMap((img) => [owned(img.original), owned(img.thumb)]),
      ]);
      await tx
        .update(clients)
        .set({ imagen: files.logo.id, calendario: files.calendario.id, manual: files.manual.id })
        .where(eq(clients.id, idCliente));

      const createdCategories = await tx
        .insert(categories)
        .values(client.categories.map((c) => ({ idCliente, nombre: c.nombre, icono: c.icono })))
        .returning({ id: categories.id });
      const categoryId = (index: number): number => {
        const row = createdCategories[index];
        if (!row) throw new Error(`Categoría ${index} inexistente en ${client.nombre}`);
        return row.id;
      };

      const createdProducts = await tx
        .insert(products)
        .values(
          client.products.map((p, i) => ({
            idCliente,
            idCategoria: categoryId(p.cat),
            claveInterna: clave(client.prefix, i + 1),
            claveCliente: `${client.clientePrefix}-${10230 + i * 7}`,
            nombre: p.nombre,
            descripcion: p.descripcion,
            unidadDeMedida: p.unidad,
            precio: p.precio,
            impuesto: p.impuesto ?? true,
            imagen: files.productImages[i]!.original.id,
          })),
        )
        .returning({ id: products.id });

      const createdUsers = await tx
        .insert(users)
        .values(
          client.users.map((u) => ({
            idCliente,
            usuario: u.usuario,
            email: `${u.usuario}@${client.emailDomain}`,
            nombre: u.nombre,
            rol: u.rol,
            ...client.address,
            area: u.area,
            coordinacion: u.coordinacion,
            activeWeek: u.activeWeek,
            entregaWeek: u.entregaWeek,
            limiteDeCompras: client.limiteDeCompras,
            presupuestoDefault: u.presupuestoDefault,
            passwordHash: demoHash,
            passwordChangedAt: now,
            passwordTemporary: false,
          })),
        )
        .returning({ id: users.id });

      const budgets: (typeof userCategoryBudgets.$inferInsert)[] = [];
      const assignments: (typeof userProducts.$inferInsert)[] = [];
      client.users.forEach((u, ui) => {
        const userId = createdUsers[ui]!.id;
        signIns.push({ usuario: u.usuario, password: DEMO_PASSWORD, rol: u.rol, cliente: client.nombre });
        for (const [cat, presupuesto] of Object.entries(u.categoryBudgets ?? {})) {
          budgets.push({ userId, categoryId: categoryId(Number(cat)), presupuesto });
        }
        if (u.rol !== ROLES.usuario) return;
        createdProducts.forEach((p, pi) => {
          assignments.push({
            userId,
            productId: p.id,
            // A few products per user stay visible in the admin's list but not assigned.
            asignado: (pi + ui * 3) % 8 !== 7,
            cantidadLimite: QUANTITY_LIMITS[(pi + ui) % QUANTITY_LIMITS.length]!,
          });
        });
      });
      if (budgets.length) await tx.insert(userCategoryBudgets).values(budgets);
      if (assignments.length) await tx.insert(userProducts).values(assignments);

      await tx
        .insert(weeks)
        .values({ idCliente, inicio: files.week.inicio, fin: files.week.fin, activo: true });
    }
  });

  return { signIns };
}
