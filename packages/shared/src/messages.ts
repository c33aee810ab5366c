/**
 * Every Spanish text of the product's validation and error catalogue, once.
 * The original specification's texts are word for word (including its spelling; docs/domain.md says
 * which rules they belong to); the rest are ours.
 */
export const MSG = {
  // Sign-in and session
  esperaUnMomento: 'Espera un momento',
  llenarTodosLosDatos: 'Debes llenar todos los datos',
  credencialesIncorrectas: 'Credenciales incorrectas',
  demasiadosIntentos: 'Demasiados intentos fallidos. Espera unos minutos antes de volver a intentarlo.',
  demasiadasSolicitudes: 'Demasiadas solicitudes. Espera unos minutos antes de volver a intentarlo.',
  sesionRequerida: 'Tu sesión ha terminado. Inicia sesión de nuevo.',
  csrfInvalido: 'La página expiró. Recarga la página e inténtalo de nuevo.',
  envelopeInvalido: 'No se pudo leer la solicitud de acceso. Recarga la página e inténtalo de nuevo.',
  usuarioInactivo: 'Tu cuenta está desactivada. Comunícate con el administrador.',
  clienteInactivo: 'El acceso de tu empresa está desactivado. Comunícate con el administrador.',
  fueraDeSemana:
    'El portal no está disponible en este momento: tu acceso está habilitado solo durante las semanas de compra de tu empresa.',
  sinPermiso: 'No tienes permiso para realizar esta acción.',
  cambioPasswordRequerido: 'Debes cambiar tu contraseña antes de continuar.',
  passwordTemporalVencida:
    'Tu contraseña temporal venció. Usa «Recuperar mi contraseña» o pide al administrador una nueva.',
  sesionCerrada: 'Sesión cerrada',

  // Passwords
  todosLosCampos: 'Todos los campos son requeridos',
  passwordPolitica:
    'La nueva contraseña debe contener al menos una mayuscula, un simbolo, un numero y ser de una longitud de 8 letras',
  passwordsNoCoinciden: 'Las nuevas contraseñas no coinciden',
  passwordActualIncorrecta: 'La contraseña actual es incorrecta',
  passwordIgualAnterior: 'La nueva contraseña debe ser distinta de la actual',
  passwordActualizadaTitulo: 'Contraseña actualizada',
  passwordActualizada: 'Se ha establecido tu nueva contraseña y se ha enviado a tu email.',
  enlaceInvalido: 'El enlace no es válido o ya expiró. Solicita uno nuevo.',
  passwordEstablecida: 'Tu contraseña fue establecida. Ya puedes iniciar sesión.',

  // Recovery
  correoEnviadoTitulo: 'Correo enviado',
  correoEnviado:
    'Te enviamos un correo con un enlace para restablecer tu contraseña. El enlace vence en 60 minutos.',
  usuarioNoEncontradoSistema: 'Este usuario no se ha encontrado en el sistema.',

  // Catalogue, cart and purchase
  cantidadInvalida: 'Ingresa una cantidad valida',
  excedeCantidad: (n: number) => `No puedes exceder la cantidad de ${n} articulos!`,
  limiteDeCompras: 'No puedes realizar mas compras, haz llegado a tu limite de compras.',
  presupuestoAgregar: 'No hay suficiente presupuesto para agregar este producto al carrito.',
  presupuestoActualizar: 'No hay suficiente presupuesto para actualizar este producto.',
  presupuestoCategoria: (nombre: string, disponible: string) =>
    `Presupuesto insuficiente para la categoria ${nombre}, disponible: ${disponible}`,
  productoAgregado: 'Producto agregado al carrito con éxito.',
  carritoActualizado: 'El carrito fue actualizado.',
  productoNoEnCarrito: 'El producto no existe en el carrito.',
  productoEliminadoCarrito: 'El producto ha sido eliminado del carrito.',
  productoNoEncontradoCarrito: 'El producto no se encontró en el carrito.',
  carritoVaciado: 'El carrito fue vaciado.',
  productoNoExiste: 'El producto no existe.',
  productoNoAsignado: 'Este producto no está asignado a tu usuario.',
  productoInactivo: 'Este producto no está disponible por el momento.',
  carritoVacio: 'Tu carrito está vacío.',
  carritoCambio: 'Tu carrito cambió en otra ventana o pestaña. Revisa tu carrito y confirma de nuevo.',
  presupuestoInsuficienteCompra: 'No hay suficiente presupuesto para completar este pedido.',
  /** Budget alerts (decision 0054): the e-mail's subject and the buyer's "Utilizado" card. */
  presupuestoUsado: (porcentaje: number, mes: string, categoria?: string) =>
    `Has usado el ${porcentaje}% de tu presupuesto${categoria ? ` de ${categoria}` : ''} de ${mes}`,
  presupuestoUsadoPor: (nombre: string, porcentaje: number, mes: string, categoria?: string) =>
    `${nombre} usó el ${porcentaje}% de su presupuesto${categoria ? ` de ${categoria}` : ''} de ${mes}`,
  avisoPresupuestoCifras: (utilizado: string, presupuesto: string) =>
    `Pedidos del mes (con IVA): ${utilizado} de ${presupuesto}.`,
  avisoPresupuestoUmbral: (umbral: number) =>
    `Este aviso se envía una sola vez al mes, al llegar al ${umbral}% del presupuesto.`,
  compraEnviadaTitulo: 'Compra enviada correctamente',
  compraEnviada: 'Tu pedido será procesado.',
  compraRechazadaTitulo: 'No se puede completar tu pedido',
  confirmarCompraTitulo: '¿Confirmar compra?',
  confirmarCompra: 'Tu pedido se enviará a revisión.',
  eliminarDelCarritoTitulo: 'Estas seguro?',
  eliminarDelCarrito: 'Eliminaras este producto de tu carrito',
  agregadoTitulo: 'Agregado',
  articuloAgregado: 'El artículo fue agregado al carrito.',
  actualizadoTitulo: 'Actualizado',
  eliminadoTitulo: 'Eliminado',
  articuloEliminado: 'El artículo fue eliminado del carrito.',
  busquedaMuyCorta: 'Escribe al menos 2 caracteres para buscar.',
  busquedaMuyLarga: 'La búsqueda no puede tener más de 100 caracteres.',
  pedidoNoEncontrado: 'El pedido no existe.',
  // Purchase-order PDF (decision 0056)
  soloAprobadosOrdenCompra: 'Solo los pedidos aprobados tienen orden de compra',
  ordenCompraAprobacionAutomatica: 'Aprobación automática (regla del cliente)',
  soloUsuarios: 'Solo los usuarios compradores pueden usar el carrito.',

  // Fulfilment (docs/domain.md "Fulfilment"; decision 0058)
  surtidoYaEn: (estado: string) => `El pedido ya está en «${estado}».`,
  surtidoNoAprobado: 'El pedido no está aprobado: no tiene surtido.',
  surtidoNoEnviado:
    'El pedido aún no se ha enviado: podrás confirmar que lo recibiste cuando esté en camino.',
  surtidoGuiaLarga: 'La guía admite hasta 60 caracteres.',
  surtidoNotaLarga: 'La nota admite hasta 500 caracteres.',
  surtidoEstadoInvalido: 'Elige un estado de surtido válido.',
  surtidoYaExportados: (numeros: string) =>
    `Estos pedidos ya se exportaron: ${numeros}. Marca «Volver a exportar» para incluirlos de nuevo.`,
  surtidoExportadosLote: (n: number, lote: number) => `${n} pedido(s) exportado(s) en el lote ${lote}.`,
  surtidoMovido: (estado: string) => `Pedido marcado como «${estado}».`,
  surtidoRecibido: 'Gracias: registramos que recibiste el pedido.',
  exportarLoteLargo: (max: number) => `Exporta hasta ${max} pedidos a la vez.`,

  // Repeating an order, saved lists (docs/domain.md "Cart"; decision 0043)
  productosAgregados: (n: number) =>
    n === 0 ? 'No se agregó ningún producto al carrito.' : `${n} producto(s) agregado(s) al carrito.`,
  listaNoEncontrada: 'La lista no existe.',
  listaNombreRequerido: 'Escribe un nombre para la lista.',
  listaNombreLargo: 'El nombre de la lista admite hasta 60 caracteres.',
  listaNombreDuplicado: 'Ya tienes una lista con ese nombre. Elige otro.',
  listaDemasiadosProductos: 'Una lista admite hasta 200 productos.',
  listaProductoRepetido: 'Un producto aparece más de una vez en la lista.',
  listaCantidadInvalida: 'La cantidad de cada producto debe ser un número entero mayor o igual a 1.',
  listaSinCambios: 'Indica el nuevo nombre o los productos de la lista.',
  listaMaximo: 'Alcanzaste el máximo de 100 listas. Elimina alguna para guardar otra.',
  listaProductoNoExiste: (id: number) => `El producto ${id} no existe.`,
  listaGuardada: 'Lista guardada.',
  listaEliminada: 'Lista eliminada.',
  pedidoRetirado: 'Retiraste el pedido; ya no cuenta en tu presupuesto ni en tu límite de compras.',
  motivoRetiro: 'Retirado por el comprador',
  notaLarga: 'La nota admite hasta 500 caracteres.',
  notaInvalida: 'La nota solo admite texto: quita los caracteres de control.',
  estatusPedidoInvalido: 'Elige un estatus: por_autorizar, pendiente, espera, aprobado o cancelado.',
  mesInvalido: 'El mes debe tener el formato AAAA-MM (por ejemplo, 2026-03).',
  numeroPedidoInvalido: 'Busca por número de pedido, por ejemplo #00042.',
  // Comments on orders (docs/domain.md "Order comments"; decision 0047)
  comentarioVacio: 'Escribe el comentario.',
  comentarioLargo: 'El comentario admite hasta 1,000 caracteres.',
  comentarioInvalido: 'El comentario solo admite texto: quita los caracteres de control.',
  comentarioAgregado: 'Comentario agregado.',
  // Quick order: lines of `clave cantidad` pasted or typed (docs/domain.md "Cart"; decision 0045)
  pedidoRapidoVacio: 'Pega o escribe al menos una línea con la clave y la cantidad, por ejemplo: ABC-001 5',
  pedidoRapidoLargo: 'El texto admite hasta 20,000 caracteres.',
  pedidoRapidoLineas: 'Pega hasta 200 líneas a la vez.',
  pedidoRapidoLinea: (linea: number, motivo: string) => `Línea ${linea}: ${motivo}`,
  pedidoRapidoFaltaCantidad: 'Falta la cantidad después de la clave.',
  pedidoRapidoFormato:
    'Escribe solo la clave y la cantidad, separadas por un espacio, tabulador, coma o punto y coma.',
  pedidoRapidoCantidad: 'La cantidad debe ser un número entero mayor o igual a 1.',
  pedidoRapidoClaveAmbigua: 'Esa clave cliente es de varios productos; usa su clave interna.',

  // Authorization
  pedidoYaProcesado:
    'Este pedido ya fue procesado por otra persona. Recarga la página para ver su estado actual.',
  accionNoPermitida: 'No puedes realizar esta acción sobre un pedido en este estado.',
  pedidoPropio: 'No puedes aprobar ni cancelar un pedido que tú realizaste.',
  segundaAutorizacionOtraPersona: 'La segunda autorización debe darla otra persona.',
  // Dashboards (decision 0055).
  rangoMesesInvalido: 'El mes inicial no puede ser posterior al mes final.',
  rangoMesesLargo: 'El periodo puede abarcar como máximo 24 meses.',
  // Out-of-office delegation (decision 0053).
  delegadoRequerido: 'Elige a quién delegas.',
  delegadoNoValido: 'Solo puedes delegar en otro Autorizador o Super Autorizador activo de tu cliente.',
  delegadoEsUnoMismo: 'No puedes delegar en ti mismo.',
  delegadoAusente: 'Esa persona también estará fuera de oficina en esas fechas.',
  delegacionMuyLarga: 'La delegación puede durar como máximo 90 días.',
  delegacionTerminada: 'La fecha final ya pasó.',
  delegacionSoloAutorizadores: 'Solo un Autorizador o Super Autorizador puede delegar.',
  delegacionGuardada: 'Delegación guardada.',
  delegacionTerminadaOk: 'Delegación terminada.',
  cantidadAutorizadorInvalida: 'Por favor, ingresa un número válido mayor que 0',
  presupuestoAutorizador: 'No se pudo actualizar, revisar el presupuesto disponible',
  pedidoSinLineas: 'Un pedido no puede quedarse sin productos. Si ya no se necesita, cancélalo.',
  soloAutorizadorEdita: 'Solo el autorizador puede modificar un pedido pendiente.',
  lineaNoEnPedido: 'El producto no forma parte de este pedido.',
  transaccionFallida: 'No se pudo realizar la transacción.',
  pedidoAprobado: 'Pedido aprobado',
  pedidoEnEspera: 'Pedido autorizado; queda en espera de la aprobación final.',
  pedidoCancelado: 'Pedido cancelado',
  fechasRequeridas: 'Por favor ingresa ambas fechas.',
  tipoReporteRequerido: 'Por favor selecciona un tipo de reporte.',
  rangoFechasInvalido: 'La fecha inicial no puede ser posterior a la fecha final.',
  // Bulk approve and cancel (docs/domain.md "Bulk approve and cancel"; decision 0046)
  loteVacio: 'Selecciona al menos un pedido.',
  loteLargo: (max: number) => `Selecciona hasta ${max} pedidos a la vez.`,
  loteRepetido: 'Un pedido aparece más de una vez en la selección.',
  loteErrorInterno: 'No se pudo procesar este pedido. Inténtalo de nuevo.',
  fechaInvalida: 'Escribe la fecha como AAAA-MM-DD.',
  reporteFallido: 'Hubo un problema al generar el reporte.',

  // Administration: clients, users, assignments, access weeks (the rest are ours)
  clienteCamposRequeridos: 'Nombre, presupuesto y limite de compras son requeridos.',
  clienteNombreLargo: 'El nombre admite hasta 150 caracteres.',
  clienteNoEncontrado: 'El cliente no existe.',
  colorInvalido: 'El color debe tener el formato #rrggbb (por ejemplo, #1c7ed6).',
  presupuestoClienteInvalido: 'El presupuesto debe ser un número mayor o igual a 0.',
  importeDecimales: 'Los importes admiten como máximo dos decimales.',
  importeMaximo: 'El importe excede el máximo permitido.',
  limiteComprasInvalido:
    'El límite de compras debe ser un número entero mayor o igual a -1 (-1 = sin límite).',
  autorizadoresInvalido: 'La cantidad de autorizadores debe ser 0, 1 o 2.',
  modoPresupuestoInvalido: "El modo de presupuesto debe ser 'regular' o 'categoria'.",
  valorSiNoInvalido: 'El valor debe ser 1 (sí) o 0 (no).',
  reglaImporteInvalido: 'El importe de la regla debe ser un número mayor o igual a 0 (vacío = sin regla).',
  recordatorioHorasInvalido:
    'Las horas del recordatorio deben ser un número entero entre 0 y 720 (0 = sin recordatorios).',
  alertasPresupuestoInvalido:
    'Los avisos de presupuesto deben ser porcentajes enteros entre 1 y 100, separados por comas.',
  alertasPresupuestoCantidad: 'Indica de 1 a 3 porcentajes para los avisos de presupuesto.',
  reglaAutomaticaNoMenor:
    'El monto de aprobación automática debe ser menor al monto que requiere Super Autorizador.',
  reglaSegundoNivelSinNiveles:
    'El monto que requiere Super Autorizador solo aplica a clientes con dos niveles de autorización.',
  autorizadoresConPedidos:
    'No se puede reducir la cantidad de autorizadores mientras haya pedidos esperando una autorización que dejaría de existir.',
  camposObligatoriosUsuario: 'Todos los campos obligatorios deben ser completados',
  usuarioNoEncontrado: 'Usuario no encontrado',
  usuarioDuplicado: 'Ya existe un usuario con ese nombre de usuario. Elige otro.',
  usuarioConEspacios: 'El usuario no puede contener espacios.',
  textoDemasiadoLargo: 'Uno de los campos excede la longitud permitida.',
  correoInvalido: 'El correo electrónico no es válido.',
  semanasUsuarioInvalidas: 'La semana de referencia y la semana de entrega deben ser un número del 1 al 4.',
  rolInvalido: 'El rol debe ser Usuario (1), Autorizador (2) o Super Autorizador (3).',
  rolSuperNoDisponible: 'El rol Super Autorizador solo está disponible para clientes con dos autorizadores.',
  presupuestoUsuarioMinimo: 'El presupuesto del usuario debe ser de al menos $1.00.',
  presupuestoCategoriaInvalido: 'El presupuesto de cada categoría debe ser un número mayor o igual a 0.',
  categoriasInvalidas: 'Las categorías no tienen un formato válido.',
  categoriaRepetida: 'Una categoría aparece más de una vez.',
  categoriaAjena: 'Una de las categorías no pertenece a este cliente.',
  cambioClienteNoPermitido: 'No se puede cambiar el cliente de un usuario existente.',
  debesSeleccionarCliente: 'Debes seleccionar un cliente.',
  correoPasswordTemporal: 'Se envió un correo con la nueva contraseña.',
  usuarioSinCorreo:
    'El usuario no tiene un correo electrónico registrado. Agrega su correo antes de restablecer la contraseña.',
  asignacionDatos: 'Debes indicar el producto y el usuario.',
  cantidadLimiteInvalida: 'La cantidad límite debe ser un número entero mayor o igual a 1.',
  estadoAsignacionInvalido: 'Indica si el producto queda habilitado (1) o no habilitado (0).',
  productoHabilitado: 'Producto habilitado para el usuario.',
  productoDeshabilitado: 'Producto no habilitado para el usuario.',
  productosHabilitados: (n: number) => `${n} producto(s) habilitado(s) para el usuario.`,
  productosDeshabilitados: (n: number) => `${n} producto(s) no habilitado(s) para el usuario.`,
  asignacionSoloUsuarios: 'Solo los usuarios con rol Usuario tienen productos asignados.',
  copiaDatos: 'Debes indicar el usuario del que se copian los productos.',
  copiaModoInvalido: "El modo debe ser 'reemplazar' o 'agregar'.",
  copiaMismoUsuario: 'Elige un usuario distinto para copiar sus productos.',
  copiaReemplazo: (desde: string, a: string, habilitados: number) =>
    `${a} tiene ahora los mismos productos que ${desde}: ${habilitados} habilitado(s).`,
  copiaAgregado: (desde: string, a: string, agregados: number) =>
    `Se habilitaron ${agregados} producto(s) de ${desde} para ${a}.`,
  loteUsuarios: 'Elige de 1 a 500 usuarios.',
  loteProductos: 'Indica los productos o una categoría (solo una de las dos cosas).',
  loteAsignado: (productos: number, usuarios: number, asignado: boolean) =>
    `${productos} producto(s) ${asignado ? 'habilitado(s)' : 'no habilitado(s)'} para ${usuarios} usuario(s).`,
  semanaFechasRequeridas: 'Debes indicar la fecha de inicio y la fecha de fin.',
  semanaFechaInvalida: 'Las fechas deben tener el formato AAAA-MM-DD.',
  semanaRango: 'La fecha de fin no puede ser anterior a la fecha de inicio.',
  semanaDuplicada: 'La semana que intentas agregar ya se ha dado de alta con anterioridad',
  semanaEmpalmada: 'Las fechas se empalman con otra semana de acceso de este cliente.',
  semanaNoEncontrada: 'La semana no existe.',
  semanaActivoRequerido: 'Indica si la semana queda activa (1) o inactiva (0).',
  semanaPeriodoRequerido: 'Debes indicar la fecha inicial y la fecha final del periodo.',
  semanaPeriodoRango: 'La fecha final del periodo no puede ser anterior a la inicial.',
  semanaPeriodoLargo: 'El periodo no puede abarcar más de 2 años.',
  semanaGeneradorDemasiadas: (max: number) => `La regla genera más de ${max} semanas; acorta el periodo.`,
  semanaModoInvalido: 'Elige cómo repetir las semanas: cada mes, todas las semanas o cada N semanas.',
  semanaDelMesInvalida: 'Elige qué semana del mes: la 1, 2, 3, 4 o la última.',
  semanaCadaInvalida: 'Indica cada cuántas semanas, un número del 2 al 12.',
  semanaDiasInvalidos: 'Cada semana debe durar de 1 a 7 días.',
  semanasGeneradas: (creadas: number, omitidas: number) =>
    `${creadas === 1 ? 'Se creó 1 semana' : `Se crearon ${creadas} semanas`}${
      omitidas === 0
        ? ''
        : omitidas === 1
          ? '; se omitió 1 que ya existía o se empalmaba con otra'
          : `; se omitieron ${omitidas} que ya existían o se empalmaban con otra`
    }.`,
  eliminadoCorrectamente: 'Eliminado correctamente',

  // Administration: inventory, categories, imports, logs (the rest are ours)
  procesoFallido: 'No se pudo completar el proceso, verifique sus datos.',
  nombreObligatorio: 'El nombre es obligatorio',
  invClienteYCategoria: 'Para guardar un producto debes seleccionar un cliente y una categoría.',
  invClienteRequerido: 'Debes seleccionar un cliente.',
  invClienteInexistente: 'El cliente no existe.',
  invCategoriaInexistente: 'La categoría no existe para este cliente.',
  invProductoInexistente: 'El producto no existe.',
  invClaveInternaRequerida: 'La clave interna es obligatoria.',
  invClaveInternaDuplicada: (clave: string) =>
    `Ya existe un producto con la clave interna "${clave}" en este cliente.`,
  invCategoriaDuplicada: (nombre: string) => `Ya existe una categoría llamada "${nombre}" en este cliente.`,
  invPrecioInvalido: 'El precio debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  invTextoLargo: (max: number) => `Admite hasta ${max} caracteres.`,
  invIconoInvalido: 'Selecciona un icono del catálogo.',
  invIdDistinto: 'El id del formulario no coincide con el del producto.',
  invSoloAlta: 'Para modificar un producto usa la opción de editar.',
  archivoNoSeleccionado: 'No se ha seleccionado un archivo',
  subidaFallida: 'Hubo un problema al subir el archivo.',
  procesandoArchivo: 'Procesando archivo',
  procesandoDetalle: 'En breve se te informará cuando los registros hayan sido procesados',
  plantillaFallida: 'Hubo un problema al generar la plantilla.',
  csvNoEsTexto:
    'El archivo no es un CSV. Descarga la plantilla, llénala y guárdala como "CSV UTF-8 (delimitado por comas)".',
  csvNoUtf8:
    'El archivo no está en UTF-8 (tiene acentos o eñes en otra codificación). En Excel usa "Guardar como" → "CSV UTF-8 (delimitado por comas)" e inténtalo de nuevo.',
  csvVacio: 'El archivo está vacío.',
  csvSinRegistros: 'El archivo no tiene registros: solo trae el encabezado.',
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
  impRepetido: (fila: number) => `Está repetido en el archivo (fila ${fila}).`,
  impLargo: (max: number) => `Admite hasta ${max} caracteres.`,
  impRol: 'Debe ser 1 (Usuario), 2 (Autorizador) o 3 (Super Autorizador).',
  impRolSuper: 'El rol 3 (Super Autorizador) solo existe en clientes con dos autorizadores.',
  impSemana: 'Debe ser un número entero del 1 al 4.',
  impCorreo: 'No es un correo electrónico válido.',
  impUsuarioEspacios: 'No puede contener espacios.',
  impUsuarioAjeno: 'Ese usuario ya existe en otro cliente.',
  impLimite: 'Debe ser un número entero mayor o igual a -1 (-1 = sin límite).',
  impCantidadLimite: 'Debe ser un número entero mayor o igual a 1 (vacío conserva la cantidad límite).',
  impUsuarioNoExiste: 'No existe un usuario con ese nombre en este cliente.',
  impUsuarioNoComprador: 'Solo los usuarios con rol Usuario (1) tienen productos asignados.',
  impProductoNoExiste: 'No existe un producto con esa clave interna en este cliente.',
  impPresupuesto: 'Debe ser un número mayor o igual a 1 con hasta 2 decimales.',
  impPresupuestoCategoria: 'Debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  impInterrumpida: 'El proceso se interrumpió antes de terminar; los registros ya guardados se conservan.',
  logsRangoInvalido: 'La fecha "desde" no puede ser posterior a la fecha "hasta".',
  logsFechaInvalida: 'Las fechas deben tener el formato AAAA-MM-DD.',
  logsUsuarioInvalido: 'El ID de usuario debe ser un número entero positivo.',
  logsClienteInvalido: 'Elige un cliente de la lista.',
  logsTipoInvalido: 'El tipo de evento no puede tener más de 100 caracteres.',

  // Two-factor sign-in ("Verificación en dos pasos")
  codigoIncorrecto: 'Código incorrecto',
  codigoRequerido: 'Escribe el código de verificación.',
  codigoFormato: 'El código de verificación tiene 6 dígitos.',
  codigoRespaldoFormato: 'El código de respaldo tiene el formato xxxx-xxxx.',
  dosPasosRequerida: 'Debes activar la verificación en dos pasos antes de continuar.',
  dosPasosYaActiva: 'La verificación en dos pasos ya está activa.',
  dosPasosNoActiva: 'La verificación en dos pasos no está activa.',
  dosPasosSinIniciar: 'Primero inicia la activación de la verificación en dos pasos.',
  dosPasosObligatoria: 'La verificación en dos pasos es obligatoria para tu cuenta; no se puede desactivar.',
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
  tokenNombre: 'Escribe un nombre de 1 a 100 caracteres.',
  tokenPermisos: 'Elige al menos un permiso.',
  tokenVigencia: 'La vigencia debe ser de 1 a 365 días.',
  cursorInvalido: 'El cursor no es válido.',
  webhookUrlInvalida: 'Escribe una URL https:// válida de hasta 500 caracteres.',
  webhookUrlHttps: 'La URL del webhook debe usar https.',
  webhookUrlPrivada:
    'La URL del webhook apunta a una dirección privada o local; no está permitida en esta instalación.',
  webhookUrlNoResuelve: 'No se pudo resolver el nombre del servidor de la URL.',
  webhookEventos: 'Elige al menos un evento.',
  webhookCreado: 'Webhook registrado. Copia el secreto de firma ahora: no se volverá a mostrar.',
  webhookNoEncontrado: 'El webhook no existe.',
  webhookYaDesactivado: 'El webhook ya está desactivado.',
  webhookDesactivado: 'Webhook desactivado',
  entregaNoEncontrada: 'La entrega no existe.',
  entregaEnCurso: 'La entrega se está enviando en este momento; inténtalo en unos segundos.',
  entregaReenviada: 'Reenvío programado',
  entregaSinRespuesta: 'Sin respuesta en 10 segundos',
  entregaConexion: 'No se pudo conectar con el receptor',
  entregaRedireccion: (codigo: number) =>
    `El receptor respondió con una redirección (${codigo}); no se siguen`,
  entregaHttp: (codigo: number) => `El receptor respondió ${codigo}`,
  entregaWebhookInactivo: 'El webhook está desactivado',
  entregaVencida: 'Se agotaron los reintentos de 24 horas',

  // Generic
  error: 'Error',
  ocurrioUnError: 'Ocurrio un error',
  errorInterno: 'Ocurrió un error inesperado. Inténtalo de nuevo más tarde.',
  noEncontrado: 'No se encontró el recurso solicitado.',
  datosInvalidos: 'Los datos enviados no son válidos.',
  textoNoValido: 'Uno de los campos contiene caracteres no permitidos.',
  servicioNoDisponible:
    'El servicio no está disponible en este momento. Inténtalo de nuevo en unos momentos.',
  cuerpoDemasiadoGrande: 'La solicitud es demasiado grande.',

  // Administrator's screens
  confirmarTitulo: '¿Estás seguro?',
  soloJpgPng: 'Only JPG and PNG files are allowed.',
  imagenPesada: 'La imagen excede el tamaño máximo de 5 MB.',
  pdfPesado: 'El PDF excede el tamaño máximo de 20 MB.',
  metadataCopiada: 'Metadatos copiados al portapapeles.',
  copiaFallida: 'No se pudo copiar al portapapeles. Selecciona el texto y cópialo manualmente.',

  // Success alerts
  creadoCorrectamente: 'Creado correctamente',
  modificadoCorrectamente: 'Modificado correctamente',
  actualizadoCorrectamente: 'Actualizado correctamente',
} as const;

export type MessageKey = keyof typeof MSG;
