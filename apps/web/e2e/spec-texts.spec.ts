import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';

/**
 * The original specification's quoted texts that the product shows are its texts word for word (decision
 * 0098): each one below must still be in what is served — the built web app (apps/web/dist) or, for a text
 * only the server words, the built server (apps/server/dist/server.js). A `{…}` part of a text is a value
 * filled in at run time: the pieces around it must be there. Texts of the specification that are names of
 * values rather than words on a screen (`regular`, `ok`, `null`) are not listed, nor 'Something went wrong
 * while submitting your name.' (an English leftover of the original code that the portal never showed in
 * its place).
 */
const WEB_TEXTS = [
  // Sign-in, recovery and the shell
  'Acceso',
  'Espere un momento',
  'Espera un momento',
  'Debes llenar todos los datos',
  'Recuperar mi contraseña',
  'Iniciar Sesión',
  'Recuperar Contraseña',
  'Enviar',
  'Credenciales incorrectas',
  'Correo enviado',
  'Este usuario no se ha encontrado en el sistema.',
  'Panel Usuario',
  'Panel Autorizador',
  'Panel Administrador',
  'Buscar...',
  'Cambiar contraseña',
  'Cerrar sesión',
  'Todos los derechos reservados.',
  // Buyer
  'Todos los productos',
  'Historial',
  'Carrito',
  'Calendario',
  'Manual',
  'Buscar un producto...',
  // The order's title: 'Pedido ' and the number as formatOrderNumber writes it ('#00012').
  'Pedido {#00012}',
  'IVA (16%)',
  'Confirmar compra',
  'Eliminar del carrito',
  'Ingresa una cantidad valida',
  'No puedes exceder la cantidad de {n} articulos!',
  'Presupuesto insuficiente para la categoria {nombre}, disponible: {presupuesto}',
  'No puedes realizar mas compras, haz llegado a tu limite de compras.',
  'No hay suficiente presupuesto para agregar este producto al carrito.',
  'No hay suficiente presupuesto para actualizar este producto.',
  '¿Confirmar compra?',
  'Tu pedido se enviará a revisión.',
  'Estas seguro?',
  'Eliminaras este producto de tu carrito',
  'No se puede completar tu pedido',
  'Ocurrio un error',
  'Compra enviada correctamente',
  'Tu pedido será procesado.',
  'Agregado',
  'El artículo fue agregado al carrito.',
  'Actualizado',
  'El carrito fue actualizado.',
  'Eliminado',
  'El artículo fue eliminado del carrito.',
  // Authorizers
  'Pedidos',
  'Generar reporte',
  'Presupuesto disponible',
  'Volver al historial de pedidos',
  'Pedidos del mes:',
  'No se hicieron más transacciones',
  'Por favor, ingresa un número válido mayor que 0',
  'No se pudo actualizar, revisar el presupuesto disponible',
  'Por favor ingresa ambas fechas.',
  'Por favor selecciona un tipo de reporte.',
  'Hubo un problema al generar el reporte.',
  // Administration
  'Agregar nuevo usuario',
  'Importación por archivo',
  'Agregar',
  'Creando',
  'Debes seleccionar un cliente!',
  'Nueva categoria',
  'Cargar productos',
  'Selecciona una imagen',
  'Cambiar',
  'Eliminar',
  'Registros del sistema',
  'Copy Metadata',
  'Metadata copiada al portapapeles!',
  'Todos los campos son requeridos',
  'La nueva contraseña debe contener al menos una mayuscula, un simbolo, un numero y ser de una longitud de 8 letras',
  'Las nuevas contraseñas no coinciden',
  'Nombre, presupuesto y limite de compras son requeridos.',
  'Only JPG and PNG files are allowed.',
  'Todos los campos obligatorios deben ser completados',
  'El nombre es obligatorio',
  '¿Estás seguro?',
  'Error',
  'No se pudo crear la información en la base de datos.',
  'No se pudo completar el proceso, verifique sus datos.',
  'No se pudo completar el proceso.',
  'No se ha seleccionado un archivo',
  'Hubo un problema al subir el archivo.',
  'Procesando archivo',
  'En breve se te informará cuando los registros hayan sido procesados',
  'Hubo un problema al generar la plantilla.',
  'Usuario no encontrado',
  'Creado correctamente',
  'Modificado correctamente',
  'Actualizado correctamente',
  'Contraseña actualizada',
  'Se ha establecido tu nueva contraseña y se ha enviado a tu email.',
];

/** Texts only the server words (its refusals and answers), shown by the web app as the server sends them. */
const SERVER_TEXTS = [
  'Producto agregado al carrito con éxito.',
  'El producto no existe en el carrito.',
  'El producto ha sido eliminado del carrito.',
  'El producto no se encontró en el carrito.',
  'No se pudo realizar la transacción.',
  'La semana que intentas agregar ya se ha dado de alta con anterioridad',
];

const root = path.resolve(import.meta.dirname, '../../..');

/** Every file of a built output as one text, with the \xHH and \uXXXX escapes a bundler may write turned back. */
function builtText(dir: string, keep: (file: string) => boolean): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(keep);
  expect(
    files.length,
    `${dir} está vacío: compila antes (npm run build && npm run build:server)`,
  ).toBeGreaterThan(0);
  return files
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n')
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\u\{([0-9a-fA-F]+)\}/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
}

/** The texts of `texts` whose pieces (around `{…}` values) are not all in `built`. */
function missing(texts: readonly string[], built: string): string[] {
  return texts.filter((text) =>
    text
      .split(/\{[^}]*\}/)
      .filter((piece) => piece.trim() !== '')
      .some((piece) => !built.includes(piece)),
  );
}

test('cada texto de la especificación original que el producto muestra sigue en lo que se sirve', () => {
  const web = builtText(path.join(root, 'apps/web/dist'), (f) => /\.(js|html)$/.test(f));
  expect(missing(WEB_TEXTS, web), 'textos de la especificación que faltan en la aplicación web').toEqual([]);
  const server = builtText(path.join(root, 'apps/server/dist'), (f) => f.endsWith('.js'));
  expect(missing(SERVER_TEXTS, server), 'textos de la especificación que faltan en el servidor').toEqual([]);
  // The list is not vacuous: a text the product does not show is reported.
  expect(missing(['Texto que no existe en el portal'], web)).toHaveLength(1);
});
