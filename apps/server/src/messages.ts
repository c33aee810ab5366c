import { formatCentavos, formatCount } from '@portal/shared/domain/money';
import type { NotificationKind } from '@portal/shared/domain/notifications';
import { MSG as SHARED_MSG } from '@portal/shared/messages';

/**
 * The server's Spanish texts: the shared catalogue (packages/shared/src/messages.ts, what the web app and the
 * schemas also use) and the texts only the server words — kept here so the browser never downloads them.
 * The original specification's texts are word for word; docs/domain.md says which rules they belong to.
 */
export const MSG = {
  ...SHARED_MSG,
  // Sign-in and session
  demasiadosIntentos: 'Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.',
  demasiadasSolicitudes: 'Demasiadas solicitudes. Espera unos minutos antes de volver a intentarlo.',
  sesionRequerida: 'Tu sesión ha terminado. Inicia sesión de nuevo.',
  envelopeInvalido: 'No se pudo leer la solicitud de acceso. Recarga la página e inténtalo de nuevo.',
  // usuarioInactivo, clienteInactivo, fueraDeSemana and passwordTemporalVencida are in the shared catalogue:
  // the sign-in page shows them when a sign-in with the company's account is refused (decision 0120).
  /** Sign-in outside the weeks also says when the next active week starts (decision 0097). */
  fueraDeSemanaProxima: (inicio: string | null) =>
    inicio
      ? `El portal no está disponible en este momento: tu acceso está habilitado solo durante las semanas de compra de tu empresa. La próxima semana de compra empieza el ${inicio.split('-').reverse().join('/')}.`
      : 'El portal no está disponible en este momento: tu acceso está habilitado solo durante las semanas de compra de tu empresa. Tu empresa no tiene ninguna semana de compra programada.',
  sinPermiso: 'No tienes permiso para realizar esta acción.',
  // The client administrator (rol 5, decision 0122)
  permisoClienteFalta: (que: string) =>
    `Tu empresa no tiene permiso para cambiar esto (${que}). Pídelo a tu distribuidor.`,
  rolNoPermitidoCliente: 'Solo puedes dar los roles Usuario, Autorizador o Super Autorizador.',
  presupuestoPendienteTope: (monto: string, tope: string) =>
    `El presupuesto de ${monto} supera el tope de ${tope} de tu empresa: quedó pendiente de aprobación del distribuidor.`,
  sincronizarArchivo:
    'Adjunta la lista de personal en CSV (columnas usuario, correo, nombre y, opcional, rol).',
  sincronizarEncabezado:
    'La lista debe tener las columnas usuario, correo y nombre (rol es opcional: 1, 2, 3 o su nombre).',
  sincronizarConErrores: (n: number) =>
    `La lista tiene ${n} ${n === 1 ? 'error' : 'errores'}: corrígelos y vuelve a intentarlo. No se cambió nada.`,
  sincronizarVistaPrevia: (altas: number, cambios: number, bajas: number) =>
    `Se darán de alta ${altas}, se actualizarán ${cambios} y se darán de baja ${bajas} usuarios.`,
  sincronizado: (altas: number, cambios: number, bajas: number, retirados: number) =>
    `Lista aplicada: ${altas} altas, ${cambios} actualizados y ${bajas} bajas; ${retirados} pedidos en espera retirados.`,
  sincronizarAdministrador: 'Es un administrador de cliente: la lista no lo cambia.',
  solicitudPresupuestoNoEncontrada: 'La solicitud de presupuesto no existe.',
  solicitudPresupuestoYaDecidida: 'Esta solicitud de presupuesto ya fue decidida o reemplazada por otra.',
  solicitudPresupuestoAprobada: 'Presupuesto aprobado y aplicado.',
  solicitudPresupuestoRechazada: 'Solicitud de presupuesto rechazada.',
  // Web Push: the server's answers about a device (decision 0117)
  pushSuscripcionNoEncontrada: 'Este dispositivo no está suscrito a tus avisos.',
  pushSuscrito: 'Este dispositivo recibirá los avisos que elijas «En el teléfono».',
  pushBaja: 'Este dispositivo ya no recibirá tus avisos.',
  // Passwords
  passwordIgualAnterior: 'La nueva contraseña debe ser distinta de la actual',
  // Catalogue, cart and purchase
  productoAgregado: 'Producto agregado al carrito con éxito.',
  productoNoEnCarrito: 'El producto no existe en el carrito.',
  productoEliminadoCarrito: 'El producto ha sido eliminado del carrito.',
  productoNoEncontradoCarrito: 'El producto no se encontró en el carrito.',
  carritoVaciado: 'El carrito fue vaciado.',
  productoNoExiste: 'El producto no existe.',
  carritoVacio: 'Tu carrito está vacío.',
  carritoCambio: 'Tu carrito cambió en otra ventana o pestaña. Revisa tu carrito y confirma de nuevo.',
  presupuestoInsuficienteCompra: 'No hay suficiente presupuesto para completar este pedido.',
  /** Budget alerts (decision 0054): the e-mail's subject and the buyer's "Utilizado" card. */
  presupuestoUsadoPor: (nombre: string, porcentaje: number, mes: string, categoria?: string) =>
    `${nombre} usó el ${porcentaje}% de su presupuesto${categoria ? ` de ${categoria}` : ''} de ${mes}`,
  presupuestoAreaUsado: (area: string, porcentaje: number, mes: string) =>
    `El área ${area} usó el ${porcentaje}% de su presupuesto de ${mes}`,
  // Moved from the shared catalogue: only the server words them (the sign-in chunk carries the shared one)
  passwordActualIncorrecta: 'La contraseña actual es incorrecta',
  /** A repeated, listed or quick-order line added with fewer units because of the product's limit. */
  ajustadoPorLimite: (pedido: number, agregado: number) =>
    `Se ajustó de ${pedido} a ${agregado} por tu límite.`,
  surtidoMovido: (estado: string) => `Pedido marcado como «${estado}».`,
  surtidoRecibido: 'Gracias: registramos que recibiste el pedido.',
  comentariosLlenos: 'El pedido ya tiene 200 comentarios; no admite más.',
  comentariosPorHora:
    'Escribiste muchos comentarios en la última hora. Espera unos minutos e inténtalo de nuevo.',
  pedidoAprobado: 'Pedido aprobado',
  /** The bulk deactivation's confirmation (users and open sessions that end). */
  desactivarLote: (usuarios: number, sesiones: number) =>
    `Se desactivará${usuarios === 1 ? '' : 'n'} ${usuarios} usuario${usuarios === 1 ? '' : 's'} y se cerrará${sesiones === 1 ? '' : 'n'} ${sesiones} ${sesiones === 1 ? 'sesión abierta' : 'sesiones abiertas'}.`,
  accesoReenviado: (enviados: number, omitidos: number) =>
    `${enviados === 1 ? 'Se envió 1 correo de acceso' : `Se enviaron ${enviados} correos de acceso`}${
      omitidos === 0 ? '' : omitidos === 1 ? '; se omitió 1 usuario' : `; se omitieron ${omitidos} usuarios`
    }.`,
  usuariosDesactivados: (usuarios: number, sesiones: number) =>
    `${usuarios === 1 ? 'Usuario desactivado' : `${usuarios} usuarios desactivados`}; ${sesiones === 1 ? 'se cerró 1 sesión' : `se cerraron ${sesiones} sesiones`}.`,
  avisoNoEncontrado: 'El aviso no existe.',
  reglaAutomaticaNoMenor:
    'El monto de aprobación automática debe ser menor al monto que requiere Super Autorizador.',
  correoPasswordTemporal: 'Se envió un correo con la nueva contraseña.',
  semanaDuplicada: 'La semana que intentas agregar ya se ha dado de alta con anterioridad',
  semanaEmpalmada: 'Las fechas se empalman con otra semana de acceso de este cliente.',
  semanasGeneradas: (creadas: number, omitidas: number) =>
    `${creadas === 1 ? 'Se creó 1 semana' : `Se crearon ${creadas} semanas`}${
      omitidas === 0
        ? ''
        : omitidas === 1
          ? '; se omitió 1 que ya existía o se empalmaba con otra'
          : `; se omitieron ${omitidas} que ya existían o se empalmaban con otra`
    }.`,
  ssoDominioEnUso: 'Uno de los dominios ya usa el inicio de sesión de otro cliente.',
  ssoDominioNoPermitido: (dominios: string[]) =>
    `Pide a tu distribuidor que agregue ${dominios.length === 1 ? 'el dominio' : 'los dominios'} ${dominios.join(', ')}. Por tu cuenta puedes usar los dominios ya guardados y los de los correos de los administradores de tu empresa.`,
  ssoObligatorio: 'Tu empresa inicia sesión con su propia cuenta: usa «Entrar con tu cuenta de la empresa».',
  // Áreas and top-ups (decision 0123): the texts only the server words
  areaNoEncontrada: 'El área no existe.',
  ampliacionNoEncontrada: 'La solicitud de ampliación no existe.',
  areaRepetida: 'Ya existe un área con ese nombre o esa clave en este cliente.',
  areaEnUso: 'No se puede eliminar el área: tiene usuarios o pedidos. Cambia a sus usuarios de área primero.',
  presupuestoArea: (area: string, disponible: string) =>
    `No hay suficiente presupuesto del área ${area} para completar este pedido, disponible: ${disponible}`,
  ampliacionSinArea: 'No perteneces a ningún área: solicita la ampliación de tu propio presupuesto.',
  ampliacionPendienteExiste: 'Ya tienes una solicitud de ampliación pendiente para este presupuesto.',
  ampliacionYaDecidida:
    'Esta solicitud ya fue decidida por otra persona. Recarga la página para ver su estado.',
  ampliacionPropia: 'No puedes decidir una ampliación que tú solicitaste.',
  ampliacionSolicitada: 'Solicitud de ampliación enviada.',
  ampliacionPorDecidir: (nombre: string, importe: string) =>
    `${nombre} solicita una ampliación de presupuesto de ${importe}`,
  ampliacionPorDecidirDestino: (area: string | null) =>
    area ? `Para el presupuesto del área ${area} de este mes.` : 'Para su propio presupuesto de este mes.',
  ampliacionAprobada: 'Ampliación aprobada.',
  ampliacionRechazada: 'Ampliación rechazada.',
  transferenciaExcede: (area: string, disponible: string) =>
    `El área ${area} solo puede ceder ${disponible} este mes: no puede quedar por debajo de lo que ya gastó.`,
  // Ship-to addresses (decision 0126): the texts only the server words
  direccionNoEncontrada: 'La dirección de entrega no existe.',
  direccionRepetida: 'Ya existe una dirección activa con ese nombre en este cliente.',
  direccionNoPermitida: 'No puedes enviar pedidos a esa dirección de entrega; elige otra de la lista.',
  direccionDeOtroCliente: 'Elige direcciones activas del cliente del usuario.',
  direccionSoloCompradores: 'Solo los usuarios compradores (rol Usuario) tienen direcciones de entrega.',
  direccionPredeterminadaEnUso: (n: number) =>
    `Es la dirección predeterminada de ${n === 1 ? '1 usuario' : `${n} usuarios`}: asígnales otra antes de desactivarla.`,
  direccionDesactivada: 'Dirección desactivada.',
  direccionesGuardadas: 'Direcciones de entrega guardadas.',
  avisoPresupuestoCifras: (utilizado: string, presupuesto: string) =>
    `Pedidos del mes (con IVA): ${utilizado} de ${presupuesto}.`,
  avisoPresupuestoUmbral: (umbral: number) =>
    `Este aviso se envía una sola vez al mes, al llegar al ${umbral}% del presupuesto.`,
  pedidoNoEncontrado: 'El pedido no existe.',
  // Purchase-order PDF (decision 0056)
  soloAprobadosOrdenCompra: 'Solo los pedidos aprobados tienen orden de compra',
  ordenCompraAprobacionAutomatica: 'Aprobación automática (regla del cliente)',
  soloUsuarios: 'Solo los usuarios compradores pueden usar el carrito.',
  // Fulfilment (docs/domain.md "Fulfilment"; decision 0058)
  surtidoYaEn: (estado: string) => `El pedido ya está en «${estado}».`,
  surtidoNoAprobado: 'El pedido no está aprobado: no tiene surtido.',
  envioExcede:
    'La cantidad a enviar supera lo que falta por enviar de una línea (o la línea no es de este pedido). Actualiza el pedido y vuelve a intentarlo.',
  envioFechaFutura: 'La fecha del envío no puede ser posterior a hoy.',
  envioSinPendiente: (estado: string) => `El pedido está en «${estado}»: no le queda nada por enviar.`,
  envioParcialNoEsMovimiento:
    'El envío parcial se registra con «Registrar envío», indicando líneas y cantidades.',
  envioRegistrado: (numero: number, estado: string) =>
    `Envío ${numero} registrado. El pedido está en «${estado}».`,
  remisionNoEncontrada: 'El envío no existe en este pedido.',
  lineaCancelarExcede:
    'La cantidad a cancelar supera lo que falta por enviar de la línea. Actualiza el pedido y vuelve a intentarlo.',
  lineaNoEncontrada: 'La línea no existe en este pedido.',
  lineaCancelada: (n: number, producto: string) => `Se cancelaron ${n} de «${producto}».`,
  promesaLineasCerradas: 'Alguna línea ya no tiene nada por enviar: su fecha prometida no se cambia.',
  promesaGuardada: 'Fecha prometida guardada.',
  promesaPasada: 'La fecha prometida no puede ser anterior a hoy.',
  surtidoNoEnviado:
    'El pedido aún no se ha enviado: podrás confirmar que lo recibiste cuando esté en camino.',
  // Receipts per shipment and claims (docs/domain.md "Receipts and claims"; decision 0127)
  recepcionNoEnviado:
    'El pedido aún no tiene envíos: podrás registrar lo que recibiste cuando esté en camino.',
  recepcionExiste: 'Este envío ya se recibió.',
  recepcionLineaNoEnEnvio: 'Indica solo líneas que vienen en este envío.',
  recepcionExcede: (n: number, producto: string) =>
    `El envío trae ${n} de «${producto}»: no puedes registrar más unidades recibidas.`,
  recepcionMotivo: (producto: string) =>
    `Indica por qué no recibiste en buen estado todas las unidades de «${producto}»: faltante, dañado o producto equivocado.`,
  recepcionRegistrada: (envio: number) => `Registramos la recepción del envío ${envio}.`,
  recepcionConReclamo: (envio: number, reclamo: number) =>
    `Registramos la recepción del envío ${envio} y abrimos el reclamo ${reclamo} por las diferencias.`,
  reclamoExcede: (producto: string, quedan: number) =>
    `No puedes reclamar más unidades de «${producto}» de las que se enviaron: ${
      quedan === 1 ? 'queda 1 por reclamar' : `quedan ${quedan} por reclamar`
    }.`,
  reclamoAbierto: (numero: number) => `Abrimos el reclamo ${numero}. Te avisaremos cuando se resuelva.`,
  reclamoNoEncontrado: 'El reclamo no existe.',
  reclamoYaDecidido: (estado: string) => `El reclamo ya está «${estado}».`,
  reclamoAceptadoReposicion: (envio: number) =>
    `Reclamo aceptado: se registró el envío de reposición ${envio}.`,
  reclamoAceptadoCredito: (monto: string) => `Reclamo aceptado: se acreditaron ${monto}.`,
  reclamoRechazado: 'Reclamo rechazado.',
  reclamoDevolucion: 'Se pidió la devolución de la mercancía con la guía indicada.',
  fotoPedidoNoAprobado: 'Solo puedes adjuntar fotos a un pedido aprobado.',
  fotoNoEncontrada: 'La foto no existe en este pedido.',
  soloFotos: 'Solo se permiten fotos JPG, PNG o HEIC.',
  surtidoYaExportados: (numeros: string) =>
    `Estos pedidos ya se exportaron: ${numeros}. Marca «Volver a exportar» para incluirlos de nuevo.`,
  surtidoExportadosLote: (n: number, lote: number) => `${n} pedido(s) exportado(s) en el lote ${lote}.`,
  // The pick list (POST /api/surtido/lista; decision 0109): the first order of the selection that may not be in it
  listaSurtidoNoExiste: (numero: string) => `El pedido ${numero} no existe.`,
  listaSurtidoNoAprobado: (numero: string) =>
    `El pedido ${numero} no está aprobado: no entra en la lista de surtido.`,
  listaSurtidoYaEnviado: (numero: string, estado: string) =>
    `El pedido ${numero} ya está «${estado}»: la lista de surtido solo incluye pedidos por surtir o en surtido.`,
  // The guías file (POST /api/surtido/guias; decision 0094)
  guiasImportadas: (enviados: number, total: number) =>
    `${enviados} de ${total} pedido(s) quedaron como «Enviado» con su guía.`,
  guiasPedidoRequerido: 'Escribe el número de pedido.',
  guiasPedidoInvalido: 'El número de pedido no es válido.',
  guiasGuiaRequerida: 'Escribe la guía.',
  guiasPedidoRepetido: (fila: number) => `El pedido ya aparece en la fila ${fila} del archivo.`,
  // Repeating an order, saved lists (docs/domain.md "Cart"; decision 0043)
  productosAgregados: (n: number) =>
    n === 0 ? 'No se agregó ningún producto al carrito.' : `${n} producto(s) agregado(s) al carrito.`,
  listaNoEncontrada: 'La lista no existe.',
  listaNombreDuplicado: 'Ya tienes una lista con ese nombre. Elige otro.',
  listaMaximo: 'Alcanzaste el máximo de 100 listas. Elimina alguna para guardar otra.',
  listaProductoNoExiste: (id: number) => `El producto ${id} no existe.`,
  listaGuardada: 'Lista guardada.',
  listaEliminada: 'Lista eliminada.',
  pedidoRetirado: 'Retiraste el pedido; ya no cuenta en tu presupuesto ni en tu límite de compras.',
  motivoRetiro: 'Retirado por el comprador',
  // Comments on orders (docs/domain.md "Order comments"; decision 0047)
  comentarioAgregado: 'Comentario agregado.',
  // Quick order: lines of `clave cantidad` pasted or typed (docs/domain.md "Cart"; decision 0045)
  pedidoRapidoClaveAmbigua: 'Esa clave cliente es de varios productos; usa su clave interna.',
  // Stock and availability (docs/domain.md "Stock and availability"; decision 0124)
  sinExistencia: (producto: string, disponible: number, pedidos: number) =>
    `No hay existencia suficiente de «${producto}»: ${
      disponible === 0
        ? 'no queda ninguna unidad disponible'
        : `${disponible === 1 ? 'queda 1 unidad disponible' : `quedan ${formatCount(disponible)} unidades disponibles`}`
    } y el pedido pide ${formatCount(pedidos)}. Este cliente no acepta productos sobre pedido.`,
  idempotencyKeyInvalida: 'La Idempotency-Key debe tener entre 1 y 200 caracteres visibles.',
  idempotencyKeyReusada: 'Esa Idempotency-Key ya se usó con otra solicitud; usa una nueva.',
  // Authorization
  pedidoYaProcesado:
    'Este pedido ya fue procesado por otra persona. Recarga la página para ver su estado actual.',
  accionNoPermitida: 'No puedes realizar esta acción sobre un pedido en este estado.',
  // Out-of-office delegation (decision 0053).
  soloAutorizadorEdita: 'Solo el autorizador puede modificar un pedido pendiente.',
  lineaNoEnPedido: 'El producto no forma parte de este pedido.',
  transaccionFallida: 'No se pudo realizar la transacción.',
  pedidoEnEspera: 'Pedido autorizado; queda en espera de la aprobación final.',
  pedidoCancelado: 'Pedido cancelado',
  pedidoDevuelto: 'Pedido devuelto al primer nivel',
  // Bulk approve and cancel (docs/domain.md "Bulk approve and cancel"; decision 0046)
  loteErrorInterno: 'No se pudo procesar este pedido. Inténtalo de nuevo.',
  // Administration: clients, users, assignments, access weeks (the rest are ours)
  clienteNoEncontrado: 'El cliente no existe.',
  reglaSegundoNivelSinNiveles:
    'El monto que requiere Super Autorizador solo aplica a clientes con dos niveles de autorización.',
  autorizadoresConPedidos:
    'No se puede reducir la cantidad de autorizadores mientras haya pedidos esperando una autorización que dejaría de existir.',
  usuarioDuplicado: 'Ya existe un usuario con ese nombre de usuario. Elige otro.',
  rolSuperNoDisponible: 'El rol Super Autorizador solo está disponible para clientes con dos autorizadores.',
  categoriaRepetida: 'Una categoría aparece más de una vez.',
  categoriaAjena: 'Una de las categorías no pertenece a este cliente.',
  cambioClienteNoPermitido: 'No se puede cambiar el cliente de un usuario existente.',
  usuarioSinCorreo:
    'El usuario no tiene un correo electrónico registrado. Agrega su correo antes de restablecer la contraseña.',
  productoHabilitado: 'Producto habilitado para el usuario.',
  productoDeshabilitado: 'Producto no habilitado para el usuario.',
  productosHabilitados: (n: number) => `${n} producto(s) habilitado(s) para el usuario.`,
  productosDeshabilitados: (n: number) => `${n} producto(s) no habilitado(s) para el usuario.`,
  asignacionSoloUsuarios: 'Solo los usuarios con rol Usuario tienen productos asignados.',
  copiaMismoUsuario: 'Elige un usuario distinto para copiar sus productos.',
  copiaReemplazo: (desde: string, a: string, habilitados: number) =>
    `${a} tiene ahora los mismos productos que ${desde}: ${habilitados} habilitado(s).`,
  copiaAgregado: (desde: string, a: string, agregados: number) =>
    `Se habilitaron ${agregados} producto(s) de ${desde} para ${a}.`,
  loteAsignado: (productos: number, usuarios: number, asignado: boolean) =>
    `${productos} producto(s) ${asignado ? 'habilitado(s)' : 'no habilitado(s)'} para ${usuarios} usuario(s).`,
  semanaNoEncontrada: 'La semana no existe.',
  semanaGeneradorDemasiadas: (max: number) => `La regla genera más de ${max} semanas; acorta el periodo.`,
  // Administration: inventory, categories, imports, logs (the rest are ours)
  invClienteInexistente: 'El cliente no existe.',
  invCategoriaInexistente: 'La categoría no existe para este cliente.',
  invProductoInexistente: 'El producto no existe.',
  precioProgramadoFecha:
    'La fecha de inicio debe ser posterior a hoy; para cambiar el precio desde hoy, edítalo sin fecha.',
  precioProgramadoInexistente: 'Este producto no tiene un cambio de precio programado.',
  precioProgramado: (precio: string, fecha: string) =>
    `Precio nuevo de ${precio} programado desde el ${fecha}.`,
  precioProgramadoCancelado: 'Se canceló el cambio de precio programado.',
  invClaveInternaDuplicada: (clave: string) =>
    `Ya existe un producto con la clave interna "${clave}" en este cliente.`,
  invCategoriaDuplicada: (nombre: string) => `Ya existe una categoría llamada "${nombre}" en este cliente.`,
  invIdDistinto: 'El id del formulario no coincide con el del producto.',
  invSoloAlta: 'Para modificar un producto usa la opción de editar.',
  csvNoEsTexto:
    'El archivo no es un CSV. Descarga la plantilla, llénala y guárdala como "CSV UTF-8 (delimitado por comas)".',
  csvNoUtf8:
    'El archivo no está en UTF-8 (tiene acentos o eñes en otra codificación). En Excel usa "Guardar como" → "CSV UTF-8 (delimitado por comas)" e inténtalo de nuevo.',
  csvVacio: 'El archivo está vacío.',
  csvSinRegistros: 'El archivo no tiene registros: solo trae el encabezado.',
  leyendaFila: 'esta fila no se importa',
  leyendaRol: '1 = Usuario (comprador), 2 = Autorizador',
  leyendaRolSuper: '1 = Usuario (comprador), 2 = Autorizador, 3 = Super Autorizador',
  csvDemasiadasFilas: (max: number) => `El archivo excede el máximo de ${max} registros por importación.`,
  csvComillas: (fila: number) => `El archivo tiene comillas sin cerrar a partir de la fila ${fila}.`,
  csvComillasMal: (fila: number) =>
    `La fila ${fila} tiene texto después de unas comillas de cierre. Un valor entre comillas termina en la comilla; para escribir una comilla dentro de él, escríbela doble ("").`,
  csvAnchoFila: (fila: number, valores: number, columnas: number) =>
    `La fila ${fila} tiene ${valores} ${valores === 1 ? 'valor' : 'valores'} y el encabezado tiene ${columnas} columnas. Revisa que no falten ni sobren separadores: un valor con coma o punto y coma va entre comillas.`,
  csvEncabezados: (faltan: string[], sobran: string[]) =>
    [
      'El encabezado del archivo no coincide con la plantilla.',
      faltan.length ? `Faltan: ${faltan.join(', ')}.` : '',
      sobran.length ? `No se reconocen: ${sobran.join(', ')}.` : '',
      'Descarga la plantilla y usa sus columnas.',
    ]
      .filter(Boolean)
      .join(' '),
  csvColumnaRepetida: (columna: string) => `La columna "${columna}" aparece más de una vez.`,
  importacionInexistente: 'La importación no existe.',
  impObligatorio: 'Es obligatorio.',
  impPrecio: 'Debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  impSiNo: 'Debe ser 1 (sí) o 0 (no).',
  impFecha: 'Debe ser una fecha dd/mm/aaaa.',
  impVigenteNuevo:
    'Un producto nuevo toma su precio desde hoy: deja vacía la fecha de inicio y prográmala cuando ya exista.',
  impRepetido: (fila: number) => `Está repetido en el archivo (fila ${fila}).`,
  impLargo: (max: number) => `Admite hasta ${max} caracteres.`,
  impRol: 'Debe ser 1 (Usuario), 2 (Autorizador) o 3 (Super Autorizador).',
  impRolSuper: 'El rol 3 (Super Autorizador) solo existe en clientes con dos autorizadores.',
  impSemana: 'Debe ser un número entero del 1 al 4.',
  impCorreo: 'No es un correo electrónico válido.',
  impUsuarioEspacios: 'No puede contener espacios.',
  impUsuarioAjeno: 'Ese usuario ya existe en otro cliente.',
  impUsuarioAdministrador:
    'Ese usuario es un administrador; sus datos se cambian desde «Usuarios», no por archivo.',
  impSinPermisoPresupuestos:
    'Tu empresa no tiene permiso para cambiar presupuestos ni límites de compra: deja esta columna vacía o pídelo a tu distribuidor.',
  impPresupuestoTope: (tope: string) =>
    `Supera el tope de ${tope} de tu empresa: cambia este presupuesto desde «Usuarios» para pedir la aprobación del distribuidor.`,
  impLimite: 'Debe ser un número entero mayor o igual a -1 (-1 = sin límite).',
  impCantidadLimite: 'Debe ser un número entero mayor o igual a 1 (vacío conserva la cantidad límite).',
  impUsuarioNoExiste: 'No existe un usuario con ese nombre en este cliente.',
  impUsuarioNoComprador: 'Solo los usuarios con rol Usuario (1) tienen productos asignados.',
  impProductoNoExiste: 'No existe un producto con esa clave interna en este cliente.',
  impPresupuesto: 'Debe ser un número mayor o igual a 1 con hasta 2 decimales.',
  impPresupuestoCategoria: 'Debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  impInterrumpida: 'El proceso se interrumpió antes de terminar; los registros ya guardados se conservan.',
  // Two-factor sign-in ("Verificación en dos pasos")
  dosPasosYaActiva: 'La verificación en dos pasos ya está activa.',
  dosPasosNoActiva: 'La verificación en dos pasos no está activa.',
  dosPasosSinIniciar: 'Primero inicia la activación de la verificación en dos pasos.',
  dosPasosIlegible:
    'Tu verificación en dos pasos no se puede comprobar porque cambió la clave del servidor. Entra con un código de respaldo o pide a un administrador que la restablezca.',
  dosPasosPendienteIlegible:
    'La activación de la verificación en dos pasos caducó porque cambió la clave del servidor. Iníciala de nuevo.',
  dosPasosDesactivada: 'La verificación en dos pasos se desactivó.',
  dosPasosRestablecida: 'Se desactivó la verificación en dos pasos del usuario y se le avisó por correo.',
  dosPasosPropia:
    'No puedes restablecer tu propia verificación en dos pasos; desactívala desde la sección Seguridad.',
  dosPasosUsuarioSinActivar: 'El usuario no tiene activa la verificación en dos pasos.',
  // Integration: tokens, the v1 API and webhooks (decisions 0059 and 0060)
  tokenInvalido: 'Token de acceso inválido.',
  tokenSinPermiso: 'El token no tiene permiso para esta operación.',
  tokenLimite: 'Demasiadas solicitudes con este token. Espera el tiempo indicado en Retry-After.',
  tokenNoEncontrado: 'El token no existe.',
  tokenYaRevocado: 'El token ya está revocado.',
  tokenRevocado: 'Token revocado',
  tokenCreado: 'Token creado. Cópialo ahora: no se volverá a mostrar.',
  tokensLlenos: (max: number) =>
    `Este alcance ya tiene ${max} tokens vigentes, el máximo. Revoca alguno que ya no uses antes de crear otro.`,
  webhooksLlenos: (max: number) =>
    `Este alcance ya tiene ${max} webhooks activos, el máximo. Desactiva alguno que ya no uses antes de registrar otro.`,
  cursorInvalido: 'El cursor no es válido.',
  webhookUrlHttps: 'La URL del webhook debe usar https.',
  webhookUrlPrivada:
    'La URL del webhook apunta a una dirección privada o local; no está permitida en esta instalación.',
  webhookUrlNoResuelve: 'No se pudo resolver el nombre del servidor de la URL.',
  webhookUrlCredenciales:
    'La URL del webhook no puede llevar usuario ni contraseña; el receptor verifica la firma de cada entrega.',
  webhookCreado: 'Webhook registrado. Copia el secreto de firma ahora: no se volverá a mostrar.',
  webhookNoEncontrado: 'El webhook no existe.',
  webhookYaDesactivado: 'El webhook ya está desactivado.',
  webhookDesactivado: 'Webhook desactivado',
  entregaNoEncontrada: 'La entrega no existe.',
  entregaEnCurso: 'La entrega se está enviando en este momento; inténtalo en unos segundos.',
  entregaReenviada: 'Reenvío programado',
  entregaSinRespuesta: 'Sin respuesta en 10 segundos',
  entregaConexion: 'No se pudo conectar con el receptor',
  entregaNoPermitida: 'No se pudo entregar',
  entregaRedireccion: (codigo: number) =>
    `El receptor respondió con una redirección (${codigo}); no se siguen`,
  entregaHttp: (codigo: number) => `El receptor respondió ${codigo}`,
  entregaWebhookInactivo: 'El webhook está desactivado',
  entregaSecretoIlegible:
    'El secreto de firma no se puede descifrar con ninguna clave configurada (SECRET_KEY cambió); desactiva este webhook y regístralo de nuevo',
  entregaVencida: 'Se agotaron los reintentos de 24 horas',
  // Single sign-on (decision 0120): refusals of a client's issuer that only the server words.
  ssoEmisorHttps: 'El emisor del proveedor de identidad debe usar https.',
  ssoEmisorPrivado:
    'El emisor apunta a una dirección privada o local; no está permitida en esta instalación.',
  ssoEmisorNoResuelve: 'No se pudo resolver el nombre del servidor del emisor.',
  ssoEmisorForma:
    'El emisor es solo la dirección del proveedor, sin usuario, contraseña, parámetros (?) ni fragmento (#).',
  ssoNoConfigurado: 'El cliente no tiene inicio de sesión con la cuenta de la empresa.',
  // Web Push (decision 0117): refusals of a device's address, what a push says on a lock screen, and why one
  // did not go out.
  pushEndpointHttps: 'La dirección del servicio de notificaciones del dispositivo debe usar https.',
  pushEndpointPrivado:
    'La dirección del servicio de notificaciones apunta a una dirección privada o local; no está permitida.',
  pushEndpointCredenciales:
    'La dirección del servicio de notificaciones no puede llevar usuario ni contraseña.',
  /** A push's text when the person did not choose to see amounts on the phone: what tapping does, no figures. */
  avisoTelefonoTexto: {
    por_revisar: 'Toca para revisarlo.',
    pedido: 'Toca para ver tu pedido.',
    comentario: 'Toca para leer el comentario.',
    presupuesto: 'Toca para ver el detalle.',
    envio: 'Toca para ver el pedido.',
  } as Record<NotificationKind, string>,
  /** The same, for an item of a kind not listed above. */
  avisoTelefonoTextoGenerico: 'Toca para abrirlo en el portal.',
  pushCuentaInactiva: 'La cuenta está desactivada',
  pushSinDispositivo: 'El dispositivo se dio de baja o cambió de dueño',
  pushRechazado: (codigo: number) => `El servicio de notificaciones respondió ${codigo}`,
  pushSinRespuesta:
    'Sin respuesta del servicio de notificaciones en 10 segundos; no se reintenta (pudo haberlo recibido)',
  pushNoCifrado: 'No se pudo cifrar el aviso para este dispositivo (sus claves no sirven)',
  // SCIM provisioning (decision 0121)
  scimTokenNoExiste: 'El cliente no tiene un token de aprovisionamiento (SCIM) activo.',
  scimTokenRevocado: 'Token de aprovisionamiento (SCIM) revocado.',
  motivoBajaScim: 'Usuario dado de baja',
  scimUsuarioNoEncontrado: (id: string) => `No existe el usuario ${id}.`,
  scimGrupoNoEncontrado: (id: string) => `No existe el grupo ${id}.`,
  scimFiltroInvalido: (detalle: string) => `Filtro no admitido: ${detalle}`,
  scimUsuarioTomado: 'Ya existe un usuario con ese userName.',
  scimExternalIdTomado: 'Ya existe un usuario de este cliente con ese externalId.',
  scimFaltaUserName: 'Falta userName.',
  scimValorInvalido: (campo: string) => `Valor no válido para ${campo}.`,
  scimRutaInvalida: (ruta: string) => `Atributo no admitido: ${ruta}.`,
  scimOperacionInvalida: (op: string) => `Operación no admitida: ${op}.`,
  scimSinOperaciones: 'La solicitud PATCH no trae operaciones.',
  scimJsonInvalido: 'El cuerpo no es JSON válido.',
  scimGruposFijos:
    'Los grupos son fijos (los roles Usuario, Autorizador y Super Autorizador, y las áreas del cliente, que se crean en el portal): no se crean ni se eliminan por SCIM.',
  scimSuperNoDisponible: 'Este cliente no tiene Super Autorizador (tiene un solo nivel de autorización).',
  scimMiembroNoEncontrado: (id: string) => `No existe el usuario ${id} en este cliente.`,
  scimTipoNoAdmitido: 'Tipo de contenido no admitido: usa application/scim+json.',
  // CFDI 4.0 invoices (decision 0131): each refusal names the field
  cfdiXmlVacio: 'El XML está vacío.',
  cfdiXmlGrande: 'El XML excede el tamaño máximo de 2 MB.',
  cfdiXmlDtd:
    'El XML trae una declaración DOCTYPE o ENTITY: un CFDI no lleva DTD ni entidades, y no se procesan.',
  cfdiXmlProfundo: 'El XML anida elementos a más de 32 niveles: no es un CFDI.',
  cfdiXmlMalFormado: 'El archivo no es un XML bien formado.',
  cfdiNoComprobante:
    'El XML no es un CFDI 4.0: su elemento raíz no es cfdi:Comprobante (http://www.sat.gob.mx/cfd/4).',
  cfdiFaltaAtributo: (atributo: string, nodo: string) =>
    `El XML no es un CFDI 4.0: falta el atributo ${atributo} en ${nodo}`,
  cfdiFaltaNodo: (nodo: string, en: string) => `El XML no es un CFDI 4.0: falta ${nodo} en ${en}`,
  cfdiVersion: (version: string) =>
    `El XML no es un CFDI 4.0: el atributo Version de cfdi:Comprobante es «${version}»`,
  cfdiTipo: (tipo: string) =>
    `TipoDeComprobante «${tipo}» no admitido: solo I (ingreso), E (egreso, nota de crédito) o P (pago).`,
  cfdiMoneda: (moneda: string) => `Moneda ${moneda} no admitida: solo MXN.`,
  cfdiImporteInvalido: (atributo: string, nodo: string, valor: string) =>
    `El atributo ${atributo} de ${nodo} no es un importe válido («${valor}»).`,
  cfdiUuidInvalido: (atributo: string, nodo: string, valor: string) =>
    `El atributo ${atributo} de ${nodo} no es un UUID («${valor}»).`,
  cfdiSinTimbre:
    'El CFDI no está timbrado: falta tfd:TimbreFiscalDigital en cfdi:Complemento (el UUID del SAT).',
  cfdiSelloDistinto: 'El SelloCFD de tfd:TimbreFiscalDigital no es el Sello de cfdi:Comprobante.',
  cfdiTotalNoCuadra: (total: number, esperado: number) =>
    `El Total de cfdi:Comprobante (${formatCentavos(total)}) no es SubTotal − Descuento + impuestos trasladados − retenidos (${formatCentavos(esperado)}).`,
  cfdiClienteSinRfc:
    'El cliente no tiene RFC en sus datos fiscales: regístralo antes de recibir sus facturas.',
  cfdiReceptorRfc: (rfc: string, delCliente: string) =>
    `El RFC del receptor (${rfc}) no es el del cliente (${delCliente}).`,
  cfdiDuplicado: (uuid: string) => `El CFDI ya está registrado (UUID ${uuid}).`,
  cfdiPedidoNoAprobado: 'Solo se registran facturas de pedidos aprobados.',
  cfdiEnvioNoEncontrado: 'El envío no existe en este pedido.',
  cfdiEgresoSinRelacion:
    'La nota de crédito no relaciona una factura: falta cfdi:CfdiRelacionados con TipoRelacion 01 y un solo cfdi:CfdiRelacionado.',
  cfdiRelacionNoRegistrada: (uuid: string) =>
    `La factura relacionada ${uuid} (cfdi:CfdiRelacionado UUID) no está registrada para este cliente.`,
  cfdiDocumentoDesconocido: (uuid: string) =>
    `La factura ${uuid} (pago20:DoctoRelacionado IdDocumento) no está registrada para este cliente.`,
  cfdiExcedeSaldo: (uuid: string, importe: number, saldo: number) =>
    `El importe aplicado a la factura ${uuid} (${formatCentavos(importe)}) excede su saldo (${formatCentavos(saldo)}).`,
  cfdiPdf: 'El PDF no es válido (pdf_base64 debe ser un PDF en base64 de hasta 5 MB).',
  facturaNoEncontrada: 'La factura no existe.',
  facturaSinDiferencias:
    'La factura ya no tiene diferencias por resolver: alguien más la resolvió o está conciliada. Recarga la página.',
  facturaSinCotejo: 'Solo las facturas (tipo I) registradas con cotejo tienen diferencias que aceptar.',
  diferenciaAceptada: 'Diferencia aceptada.',
  facturaRegistrada: (tipo: string, uuid: string) => `CFDI registrado: ${tipo} (UUID ${uuid}).`,
  // Generic
  noEncontrado: 'No se encontró el recurso solicitado.',
  textoNoValido: 'Uno de los campos contiene caracteres no permitidos.',
  cuerpoDemasiadoGrande: 'La solicitud es demasiado grande.',
} as const;
