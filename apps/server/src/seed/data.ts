import type { ClientPermission } from '@portal/shared/domain/client-admin';
/**
 * The demo data set: two clients ("Demo Industrial", regular budget mode with two authorizers; "Demo
 * Categorías", category mode with one), their categories, products and users, and the published demo
 * passwords (README). Plain data: seed.ts writes it.
 */

/** Password of every demo client user. */
export const DEMO_PASSWORD = 'Demo#2026';
/** Password of the demo administrator. */
export const ADMIN_DEMO_PASSWORD = 'Admin#2026';
/**
 * The published TOTP secret of the demo administrator `admin2fa` (README): add it to an authenticator
 * app, or compute its codes, to try the two-step sign-in. Demo data only.
 */
export const ADMIN_2FA_DEMO_SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';
/**
 * The published integration token of the demo (docs/integration.md's curl examples): every client,
 * `pedidos:leer`, a year from the seed. Demo data only; revocable in Administración → Integraciones.
 */
export const DEMO_API_TOKEN = 'pdc_demo_publicado_solo_para_pruebas_locales';

export interface DemoCategory {
  nombre: string;
  icono: string;
  /** Base colour of its product pictures. */
  color: string;
}

export interface DemoProduct {
  /** Index into the client's categories. */
  cat: number;
  nombre: string;
  descripcion: string;
  unidad: string;
  /** Centavos. */
  precio: number;
  impuesto?: boolean;
}

export interface Address {
  direccionEntrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  localidad: string;
  region: string;
}

export interface DemoUser {
  usuario: string;
  nombre: string;
  /** 5: the client's own administrator, with two-factor sign-in active on the published demo secret. */
  rol: 1 | 2 | 3 | 5;
  area: string;
  coordinacion: string;
  activeWeek: number;
  entregaWeek: number;
  presupuestoDefault: number;
  /** Category budgets (category mode): category index -> centavos. */
  categoryBudgets?: Record<number, number>;
}

export interface DemoClient {
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
  /** What the client's administrator may change, and its budget cap (centavos); absent: the defaults. */
  permisosCliente?: ClientPermission[];
  topePresupuesto?: number;
  logo: 'gear' | 'grid';
  address: Address;
  categories: DemoCategory[];
  products: DemoProduct[];
  users: DemoUser[];
  /** Áreas (cost centres, decision 0123): their responsible approver and members by username. */
  areas?: DemoArea[];
}

export interface DemoArea {
  nombre: string;
  codigo: string;
  cuentaContable: string;
  /** Monthly budget, centavos. */
  presupuesto: number;
  responsable: string;
  miembros: string[];
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
  permisosCliente: ['usuarios', 'presupuestos'],
  topePresupuesto: 1_000_000,
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
      usuario: 'gerente',
      nombre: 'Claudia Rivas Soto',
      rol: 5,
      area: 'Compras',
      coordinacion: 'Administración',
      activeWeek: 1,
      entregaWeek: 1,
      presupuestoDefault: 0,
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
  areas: [
    {
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      cuentaContable: '6100-01',
      presupuesto: 2_000_000,
      responsable: 'autorizador',
      miembros: ['usuario'],
    },
    {
      nombre: 'Almacén',
      codigo: 'ALM',
      cuentaContable: '6200-01',
      presupuesto: 1_500_000,
      responsable: 'autorizador',
      miembros: ['usuario2'],
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

export const DEMO_CLIENTS: readonly DemoClient[] = [DEMO_INDUSTRIAL, DEMO_CATEGORIAS];

/** Cycle of per-product quantity limits for assignments. */
export const QUANTITY_LIMITS = [1, 2, 3, 5, 10] as const;
