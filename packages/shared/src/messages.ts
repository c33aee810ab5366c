/**
 * Every Spanish text of the product's validation and error catalogue that the web app or the shared schemas
 * use, once; the server's own texts (e-mails, log lines, refusals only it words) extend it in
 * apps/server/src/messages.ts, so the browser never downloads them.
 * The original specification's texts are word for word (including its spelling; docs/domain.md says
 * which rules they belong to); the rest are ours.
 */
export const MSG = {
  // Sign-in and session
  llenarTodosLosDatos: 'Debes llenar todos los datos',
  /** The title of the sign-in notice of empty fields (the specification's pair with llenarTodosLosDatos). */
  esperaUnMomento: 'Espera un momento',
  credencialesIncorrectas: 'Credenciales incorrectas',
  csrfInvalido: 'La página expiró. Recarga la página e inténtalo de nuevo.',
  cambioPasswordRequerido: 'Debes cambiar tu contraseña antes de continuar.',
  sesionCerrada: 'Sesión cerrada',

  // Passwords
  todosLosCampos: 'Todos los campos son requeridos',
  passwordPolitica:
    'La nueva contraseña debe contener al menos una mayuscula, un simbolo, un numero y ser de una longitud de 8 letras',
  passwordsNoCoinciden: 'Las nuevas contraseñas no coinciden',
  passwordActualRequerida: 'Escribe tu contraseña actual.',
  passwordActualizadaTitulo: 'Contraseña actualizada',
  passwordActualizada: 'Se ha establecido tu nueva contraseña y se ha enviado a tu email.',
  enlaceInvalido: 'El enlace no es válido o ya expiró. Solicita uno nuevo.',
  passwordEstablecida: 'Tu contraseña fue establecida. Ya puedes iniciar sesión.',
  cambioPasswordTemporal:
    'Entraste con una contraseña temporal que te dio un administrador. Elige una contraseña propia para continuar.',
  cambioPasswordCaducada: 'Tu contraseña tiene 6 meses o más. Por seguridad, elige una nueva para continuar.',
  reglasPasswordTitulo: 'La nueva contraseña debe tener:',
  reglaPasswordLongitud: 'Al menos 8 caracteres',
  reglaPasswordMayuscula: 'Una letra mayúscula',
  reglaPasswordNumero: 'Un número',
  reglaPasswordSimbolo: 'Un símbolo (por ejemplo # ! $ %)',
  reglaPasswordCoinciden: 'Las dos contraseñas coinciden',
  reglasPasswordTodas: 'La contraseña cumple todos los requisitos.',
  reglasPasswordFaltan: (cumplidas: number, total: number, faltan: string[]) =>
    `Cumple ${cumplidas} de ${total} requisitos. Pendiente: ${faltan.join(', ')}.`,
  reglaPasswordCumplida: 'cumplida',
  reglaPasswordPendiente: 'pendiente',

  // Recovery
  correoEnviadoTitulo: 'Correo enviado',
  correoEnviado:
    'Te enviamos un correo con un enlace para restablecer tu contraseña. El enlace vence en 60 minutos.',
  usuarioNoEncontradoSistema: 'Este usuario no se ha encontrado en el sistema.',

  // Catalogue, cart and purchase
  cantidadInvalida: 'Ingresa una cantidad valida',
  excedeCantidad: (n: number) => `No puedes exceder la cantidad de ${n} articulos!`,
  /** A product's own maximum per order, shown next to its quantity (issue 37). */
  maximoPorPedido: (n: number) => `máx. ${n}`,
  limiteDeCompras: 'No puedes realizar mas compras, haz llegado a tu limite de compras.',
  presupuestoAgregar: 'No hay suficiente presupuesto para agregar este producto al carrito.',
  presupuestoActualizar: 'No hay suficiente presupuesto para actualizar este producto.',
  presupuestoCategoria: (nombre: string, disponible: string) =>
    `Presupuesto insuficiente para la categoria ${nombre}, disponible: ${disponible}`,
  carritoActualizado: 'El carrito fue actualizado.',
  productoNoAsignado: 'Este producto no está asignado a tu usuario.',
  productoInactivo: 'Este producto no está disponible por el momento.',
  presupuestoUsado: (porcentaje: number, mes: string, categoria?: string) =>
    `Has usado el ${porcentaje}% de tu presupuesto${categoria ? ` de ${categoria}` : ''} de ${mes}`,
  compraEnviadaTitulo: 'Compra enviada correctamente',
  compraEnviada: 'Tu pedido será procesado.',
  compraRechazadaTitulo: 'No se puede completar tu pedido',
  confirmarCompraTitulo: '¿Confirmar compra?',
  confirmarCompra: 'Tu pedido se enviará a revisión.',
  /** An order the client's rule approves at purchase (no levels, or a total up to the automatic amount). */
  confirmarCompraAutomatica: 'Tu pedido quedará aprobado automáticamente, sin revisión.',
  /** The same when the buyer's earlier orders of the client's window add up (decision 0100). */
  confirmarCompraAutomaticaVentana: (horas: number, hasta: string) =>
    `Tu pedido quedará aprobado automáticamente, sin revisión, si con tus pedidos de ${horas === 1 ? 'la última hora' : `las últimas ${horas} horas`} no pasa de ${hasta}; si pasa, se enviará a revisión.`,
  pedidoAprobadoAutomaticamente: 'Tu pedido quedó aprobado automáticamente',
  eliminarDelCarritoTitulo: 'Estas seguro?',
  eliminarDelCarrito: 'Eliminaras este producto de tu carrito',
  agregadoTitulo: 'Agregado',
  articuloAgregado: 'El artículo fue agregado al carrito.',
  actualizadoTitulo: 'Actualizado',
  eliminadoTitulo: 'Eliminado',
  articuloEliminado: 'El artículo fue eliminado del carrito.',
  busquedaMuyCorta: 'Escribe al menos 2 caracteres para buscar.',
  busquedaMuyLarga: 'La búsqueda no puede tener más de 100 caracteres.',

  // Fulfilment (docs/domain.md "Fulfilment"; decision 0058)
  surtidoGuiaLarga: 'La guía admite hasta 60 caracteres.',
  guiasPaqueteriaLarga: 'La paquetería admite hasta 40 caracteres.',
  envioLinea: 'Indica de 1 a 500 líneas del pedido, cada una una sola vez.',
  lineaMotivoRequerido: 'Escribe el motivo (hasta 300 caracteres).',
  surtidoNotaLarga: 'La nota admite hasta 500 caracteres.',

  surtidoEstadoInvalido: 'Elige un estado de surtido válido.',
  exportarLoteLargo: (max: number) => `Exporta hasta ${max} pedidos a la vez.`,
  listaSurtidoLarga: (max: number) => `La lista de surtido admite hasta ${max} pedidos a la vez.`,
  listaSurtidoFormato: 'Elige el formato de la lista de surtido: pdf o csv.',

  // Repeating an order, saved lists (docs/domain.md "Cart"; decision 0043)
  listaNombreRequerido: 'Escribe un nombre para la lista.',
  listaNombreLargo: 'El nombre de la lista admite hasta 60 caracteres.',
  listaDemasiadosProductos: 'Una lista admite hasta 200 productos.',
  listaProductoRepetido: 'Un producto aparece más de una vez en la lista.',
  listaCantidadInvalida: 'La cantidad de cada producto debe ser un número entero mayor o igual a 1.',
  listaSinCambios: 'Indica el nuevo nombre o los productos de la lista.',
  notaLarga: 'La nota admite hasta 500 caracteres.',
  notaInvalida: 'La nota solo admite texto: quita los caracteres de control.',
  estatusPedidoInvalido: 'Elige un estatus: por_autorizar, pendiente, espera, aprobado o cancelado.',
  mesInvalido: 'El mes debe tener el formato AAAA-MM (por ejemplo, 2026-03).',
  numeroPedidoInvalido: 'Busca por número de pedido, por ejemplo #00042.',
  // Comments on orders (docs/domain.md "Order comments"; decision 0047)
  comentarioVacio: 'Escribe el comentario.',
  comentarioLargo: 'El comentario admite hasta 1,000 caracteres.',
  comentarioAnteriorInvalido: 'El comentario de referencia no es válido.',
  comentarioInvalido: 'El comentario solo admite texto: quita los caracteres de control.',
  // Quick order: lines of `clave cantidad` pasted or typed (docs/domain.md "Cart"; decision 0045)
  pedidoRapidoVacio: 'Pega o escribe al menos una línea con la clave y la cantidad, por ejemplo: ABC-001 5',
  pedidoRapidoLargo: 'El texto admite hasta 20,000 caracteres.',
  pedidoRapidoLineas: 'Pega hasta 200 líneas a la vez.',
  pedidoRapidoLinea: (linea: number, motivo: string) => `Línea ${linea}: ${motivo}`,
  pedidoRapidoFaltaCantidad: 'Falta la cantidad después de la clave.',
  pedidoRapidoFormato:
    'Escribe solo la clave y la cantidad, separadas por un espacio, tabulador, coma o punto y coma.',
  pedidoRapidoCantidad: 'La cantidad debe ser un número entero mayor o igual a 1.',

  // Authorization
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
  delegacionGuardada: 'Delegación guardada.',
  delegacionTerminadaOk: 'Delegación terminada.',
  cantidadAutorizadorInvalida: 'Por favor, ingresa un número válido mayor que 0',
  presupuestoAutorizador: 'No se pudo actualizar, revisar el presupuesto disponible',
  pedidoSinLineas: 'Un pedido no puede quedarse sin productos. Si ya no se necesita, cancélalo.',
  fechasRequeridas: 'Por favor ingresa ambas fechas.',
  tipoReporteRequerido: 'Por favor selecciona un tipo de reporte.',
  rangoFechasInvalido: 'La fecha inicial no puede ser posterior a la fecha final.',
  paginaDespuesOAntes: 'Indica la página después de un pedido o antes de otro, no ambas.',
  // Bulk approve and cancel (docs/domain.md "Bulk approve and cancel"; decision 0046)
  loteVacio: 'Selecciona al menos un pedido.',
  loteLargo: (max: number) => `Selecciona hasta ${max} pedidos a la vez.`,
  loteRepetido: 'Un pedido aparece más de una vez en la selección.',
  loteIdInvalido: 'La selección solo admite números de pedido válidos.',
  fechaInvalida: 'Escribe la fecha como AAAA-MM-DD.',
  /** A list's `orden` outside its values (decision 0067). */
  ordenInvalido: 'El orden de la lista no es válido.',
  rolFiltroInvalido: 'Elige un rol: Usuario, Autorizador, Super Autorizador o Administrador de cliente.',
  estatusUsuarioInvalido: 'El estado debe ser activo o inactivo.',
  accesosSinEnviar: (n: number) =>
    n === 1 ? '1 correo de acceso sin enviar' : `${n} correos de acceso sin enviar`,
  reporteFallido: 'Hubo un problema al generar el reporte.',

  // Administration: clients, users, assignments, access weeks (the rest are ours)
  clienteCamposRequeridos: 'Nombre, presupuesto y limite de compras son requeridos.',
  clienteNombreLargo: 'El nombre admite hasta 150 caracteres.',
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
  avisoTipoInvalido: 'El tipo de aviso no existe.',
  avisoCanalInvalido: "La forma de aviso debe ser 'inmediato', 'hora', 'dia', 'portal' o 'telefono'.",
  importesEnTelefonoInvalido: 'Indica con sí o no si los avisos del teléfono muestran importes.',
  resumenHoraInvalida: 'La hora del resumen diario debe ser un número entero entre 0 y 23.',
  avisoAnteriorInvalido: 'El aviso desde el que se pagina debe ser un número entero positivo.',
  escalarHorasInvalido:
    'Las horas para escalar deben ser un número entero entre 0 y 720 (0 = sin escalamiento).',
  recordatorioHorasInvalido:
    'Las horas del recordatorio deben ser un número entero entre 0 y 720 (0 = sin recordatorios).',
  ventanaReglasHorasInvalida:
    'Las horas que suman pedidos para las reglas deben ser un número entero entre 0 y 720 (0 = cada pedido por separado).',
  alertasPresupuestoInvalido:
    'Los avisos de presupuesto deben ser porcentajes enteros entre 1 y 100, separados por comas.',
  alertasPresupuestoCantidad: 'Indica de 1 a 3 porcentajes para los avisos de presupuesto.',
  camposObligatoriosUsuario: 'Todos los campos obligatorios deben ser completados',
  usuarioNoEncontrado: 'Usuario no encontrado',
  usuarioConEspacios: 'El usuario no puede contener espacios.',
  textoDemasiadoLargo: 'Uno de los campos excede la longitud permitida.',
  correoInvalido: 'El correo electrónico no es válido.',
  semanasUsuarioInvalidas: 'La semana de referencia y la semana de entrega deben ser un número del 1 al 4.',
  rolInvalido:
    'El rol debe ser Usuario (1), Autorizador (2), Super Autorizador (3) o Administrador de cliente (5).',
  permisosClienteInvalidos:
    'Los permisos del administrador de cliente deben ser: usuarios, presupuestos, asignaciones, semanas, reglas o identidad.',
  topePresupuestoInvalido: 'El tope de presupuesto debe ser un importe mayor o igual a 0.',
  presupuestoUsuarioMinimo: 'El presupuesto del usuario debe ser de al menos $1.00.',
  // Áreas (cost centres) and top-ups (decision 0123)
  areaNombreRequerido: 'Escribe el nombre del área.',
  areaCodigoRequerido: 'Escribe la clave del área (por ejemplo, MANT).',
  areaCodigoInvalido: 'La clave del área solo puede tener letras, números, guiones y puntos (hasta 20).',
  areaPresupuestoInvalido: 'El presupuesto del área debe ser un importe mayor o igual a 0.',
  areaResponsableInvalido: 'Elige como responsable a un autorizador activo de este cliente.',
  areaInvalida: 'Elige un área de este cliente.',
  presupuestoAreaCarrito: (area: string, disponible: string) =>
    `No hay suficiente presupuesto del área ${area} para este carrito, disponible: ${disponible}`,
  presupuestoAreaAutorizador: (area: string) =>
    `No se pudo actualizar, revisar el presupuesto disponible del área ${area}`,
  // Stock and availability (docs/domain.md "Stock and availability"; decision 0124)
  existenciaInvalida: 'La existencia debe ser un número entero mayor o igual a 0.',
  diasEntregaInvalidos: 'Los días de entrega deben ser un número entero entre 0 y 3650.',
  umbralExistenciaInvalido: 'El umbral de existencia debe ser un número entero entre 0 y 1,000,000.',
  ampliacionImporteInvalido: 'El importe de la ampliación debe ser mayor que 0.',
  ampliacionMotivoRequerido: 'Escribe el motivo de la ampliación.',
  ampliacionCategoriaRequerida: 'Elige la categoría cuyo presupuesto quieres ampliar.',
  transferenciaMismaArea: 'Elige dos áreas distintas para la transferencia.',
  transferenciaHecha: 'Transferencia registrada.',
  presupuestoCategoriaInvalido: 'El presupuesto de cada categoría debe ser un número mayor o igual a 0.',
  categoriasInvalidas: 'Las categorías no tienen un formato válido.',
  /** The original specification's text of the weeks screen without a client (word for word). */
  debesSeleccionarCliente: 'Debes seleccionar un cliente!',
  asignacionDatos: 'Debes indicar el producto y el usuario.',
  cantidadLimiteInvalida: 'La cantidad límite debe ser un número entero mayor o igual a 1.',
  limitePorDefectoInvalido: 'La cantidad límite por defecto debe ser un número entero mayor o igual a 1.',
  estadoAsignacionInvalido: 'Indica si el producto queda habilitado (1) o no habilitado (0).',
  copiaDatos: 'Debes indicar el usuario del que se copian los productos.',
  copiaModoInvalido: "El modo debe ser 'reemplazar' o 'agregar'.",
  loteUsuarios: 'Elige de 1 a 500 usuarios.',
  loteProductos: 'Indica los productos o las categorías (solo una de las dos cosas).',
  loteCategorias: 'Elige de 1 a 500 categorías.',
  semanaFechasRequeridas: 'Debes indicar la fecha de inicio y la fecha de fin.',
  semanaFechaInvalida: 'Las fechas deben tener el formato AAAA-MM-DD.',
  semanaRango: 'La fecha de fin no puede ser anterior a la fecha de inicio.',
  semanaActivoRequerido: 'Indica si la semana queda activa (1) o inactiva (0).',
  semanaPeriodoRequerido: 'Debes indicar la fecha inicial y la fecha final del periodo.',
  semanaPeriodoRango: 'La fecha final del periodo no puede ser anterior a la inicial.',
  semanaPeriodoLargo: 'El periodo no puede abarcar más de 2 años.',
  semanaModoInvalido: 'Elige cómo repetir las semanas: cada mes, todas las semanas o cada N semanas.',
  semanaDelMesInvalida: 'Elige qué semana del mes: la 1, 2, 3, 4 o la última.',
  semanaCadaInvalida: 'Indica cada cuántas semanas, un número del 2 al 12.',
  semanaDiasInvalidos: 'Cada semana debe durar de 1 a 7 días.',
  /**
   * The generator's preview when saving leaves today outside every active week of a client that restricts
   * access (decision 0097): until when, or that no active week lies ahead.
   */
  hoySinAcceso: (proxima: string | null) =>
    proxima
      ? `Hoy ningún comprador de este cliente podrá entrar hasta el ${proxima.split('-').reverse().join('/')}`
      : 'Hoy ningún comprador de este cliente podrá entrar: no queda ninguna semana activa por delante.',
  eliminadoCorrectamente: 'Eliminado correctamente',

  // Administration: inventory, categories, imports, logs (the rest are ours)
  procesoFallido: 'No se pudo completar el proceso, verifique sus datos.',
  nombreObligatorio: 'El nombre es obligatorio',
  invClienteYCategoria: 'Para guardar un producto debes seleccionar un cliente y una categoría.',
  invClienteRequerido: 'Debes seleccionar un cliente.',
  invClaveInternaRequerida: 'La clave interna es obligatoria.',
  invPrecioInvalido: 'El precio debe ser un número mayor o igual a 0 con hasta 2 decimales.',
  invTextoLargo: (max: number) => `Admite hasta ${max} caracteres.`,
  invIconoInvalido: 'Selecciona un icono del catálogo.',
  invLoteProductos: (max: number) => `Elige de 1 a ${max} productos.`,
  /** A product's pending price change (decision 0132), beside its current price. */
  precioNuevoDesde: (fecha: string, precio: string) => `Precio nuevo desde el ${fecha}: ${precio}`,
  invLoteActivo: 'Indica si los productos quedan activos (1) o inactivos (0).',
  archivoNoSeleccionado: 'No se ha seleccionado un archivo',
  subidaFallida: 'Hubo un problema al subir el archivo.',
  procesandoArchivo: 'Procesando archivo',
  procesandoDetalle: 'En breve se te informará cuando los registros hayan sido procesados',
  plantillaFallida: 'Hubo un problema al generar la plantilla.',
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
  dosPasosObligatoria: 'La verificación en dos pasos es obligatoria para tu cuenta; no se puede desactivar.',

  // Integration: tokens, the v1 API and webhooks (decisions 0059 and 0060)
  tokenNombre: 'Escribe un nombre de 1 a 100 caracteres.',
  tokenPermisos: 'Elige al menos un permiso.',
  tokenVigencia: 'La vigencia debe ser de 1 a 365 días.',
  webhookUrlInvalida: 'Escribe una URL https:// válida de hasta 500 caracteres.',
  webhookEventos: 'Elige al menos un evento.',

  // Web Push: the devices that receive a person's avisos (decision 0117)
  pushEndpointInvalido: 'La dirección del dispositivo debe ser https:// y válida.',
  pushClaveInvalida: 'La clave del dispositivo no es válida.',
  pushAuthInvalido: 'El secreto del dispositivo no es válido.',

  // Single sign-on with the client's own identity provider (OpenID Connect, issue 40 item 4)
  ssoEmisorInvalido: 'Escribe la dirección https:// del emisor (issuer) de tu proveedor de identidad.',
  ssoIdClienteInvalido: 'Escribe el identificador de cliente (client id) de 1 a 200 caracteres.',
  ssoSecretoInvalido: 'El secreto de cliente debe tener de 1 a 500 caracteres.',
  ssoSecretoRequerido: 'Escribe el secreto de cliente (client secret) que te dio tu proveedor de identidad.',
  ssoDominiosInvalidos: 'Escribe de 1 a 10 dominios de correo válidos, como empresa.com.mx.',
  ssoCorreoInvalido: 'Escribe un correo electrónico válido.',
  ssoGuardado: 'Inicio de sesión con la cuenta de la empresa guardado.',
  ssoEliminado: 'Inicio de sesión con la cuenta de la empresa eliminado.',
  ssoNoDisponible:
    'Tu empresa no tiene inicio de sesión con su propia cuenta. Entra con tu usuario y contraseña.',
  ssoProveedorCaido:
    'No pudimos comunicarnos con el proveedor de identidad de tu empresa. Inténtalo de nuevo en unos minutos o entra con tu usuario y contraseña.',
  ssoRechazado: 'No se pudo iniciar sesión con la cuenta de la empresa. Inténtalo de nuevo.',
  ssoVencido:
    'El inicio de sesión con la cuenta de la empresa tardó demasiado o ya se usó. Inténtalo de nuevo.',
  ssoCorreoNoVerificado:
    'Tu proveedor de identidad no confirma tu correo electrónico. Pide a tu área de sistemas que lo verifique.',
  ssoSinCuenta: 'No hay una cuenta del portal para tu correo. Pide a tu administrador que te dé de alta.',
  ssoOtroDominio: 'Tu correo no pertenece a los dominios de tu empresa en el portal.',
  ssoVariasCuentas:
    'Hay más de una cuenta del portal con tu correo. Pide a tu administrador que deje solo una activa.',
  ssoDemasiadosIntentos:
    'Demasiados inicios de sesión con la cuenta de la empresa desde esta conexión. Espera unos minutos antes de volver a intentarlo.',
  // Refusals of any sign-in (password or the company's account): the server's refusal and the sign-in page
  // after `/login?sso=<code>` show the same text.
  usuarioInactivo: 'Tu cuenta está desactivada. Comunícate con el administrador.',
  clienteInactivo: 'El acceso de tu empresa está desactivado. Comunícate con el administrador.',
  fueraDeSemana:
    'El portal no está disponible en este momento: tu acceso está habilitado solo durante las semanas de compra de tu empresa.',
  passwordTemporalVencida:
    'Tu contraseña temporal venció. Usa «Recuperar mi contraseña» o pide al administrador una nueva.',

  // Generic
  error: 'Error',
  ocurrioUnError: 'Ocurrio un error',
  errorInterno: 'Ocurrió un error inesperado. Inténtalo de nuevo más tarde.',
  datosInvalidos: 'Los datos enviados no son válidos.',
  servicioNoDisponible:
    'El servicio no está disponible en este momento. Inténtalo de nuevo en unos momentos.',
  /** After a server error's message: the request's id, for support. */
  codigoSoporte: (id: string) => `Código de soporte: ${id}`,

  // Administrator's screens
  confirmarTitulo: '¿Estás seguro?',
  /** Deactivating a client: what happens to its users (GET /api/clientes/{id}/resumen's counts). */
  clienteDesactivarConsecuencia: (nombre: string, activos: number, conSesion: number) =>
    activos === 0
      ? `Se desactivará ${nombre}. No tiene usuarios activos; nadie pierde el acceso por ahora.`
      : `Se desactivará ${nombre}: ${
          activos === 1 ? 'su único usuario activo no podrá' : `sus ${activos} usuarios activos no podrán`
        } entrar al portal hasta que lo actives de nuevo.${
          conSesion === 0
            ? ' Ninguno tiene una sesión abierta ahora.'
            : conSesion === 1
              ? ' Se cerrará la sesión abierta de 1 usuario.'
              : ` Se cerrarán las sesiones abiertas de ${conSesion} usuarios.`
        }`,
  clienteDesactivarSinConteo: (nombre: string) =>
    `Se desactivará ${nombre}: ninguno de sus usuarios podrá entrar al portal hasta que lo actives de nuevo y se cerrarán sus sesiones abiertas.`,
  soloJpgPng: 'Only JPG and PNG files are allowed.',
  imagenPesada: 'La imagen excede el tamaño máximo de 5 MB.',
  pdfPesado: 'El PDF excede el tamaño máximo de 20 MB.',
  /** The specification's alert of the log's 'Copy Metadata' (word for word). */
  metadataCopiada: 'Metadata copiada al portapapeles!',
  copiaFallida: 'No se pudo copiar al portapapeles. Selecciona el texto y cópialo manualmente.',

  delegacionSoloAutorizadores: 'Solo un Autorizador o Super Autorizador puede delegar.',
  avisoTipoNoAplica: 'Ese tipo de aviso no aplica a tu cuenta.',
  invLoteHecho: (n: number, activo: boolean) =>
    `${n === 1 ? '1 producto quedó' : `${n} productos quedaron`} ${activo ? (n === 1 ? 'activo' : 'activos') : n === 1 ? 'inactivo' : 'inactivos'}.`,

  // Credit and statements (decision 0134)
  limiteCreditoInvalido: 'El límite de crédito debe ser un importe de 0 o más, o quedar vacío (sin límite).',
  diasCreditoInvalido: 'Los días de crédito deben ser un número entero entre 0 y 365.',
  politicaCreditoInvalida: 'La política de crédito debe ser «avisar» o «retener».',
  creditoExcedido: (saldo: string, pedido: string, limite: string) =>
    `El saldo del cliente (${saldo}) más este pedido (${pedido}) rebasa su límite de crédito (${limite}).`,
  creditoVencido: (n: number, importe: string) =>
    `El cliente tiene ${n === 1 ? '1 factura vencida' : `${n} facturas vencidas`} por ${importe}.`,
  creditoRetendra:
    'Al aprobarlo, el pedido quedará retenido por crédito hasta que el distribuidor lo libere.',
  pedidoRetenidoCredito:
    'El pedido está retenido por crédito: el distribuidor debe liberarlo antes de prepararlo o enviarlo.',
  pedidoNoRetenido: 'El pedido ya no está retenido por crédito.',
  pedidoLiberado: 'Pedido liberado: ya puede surtirse.',
  estadoCuentaCliente: 'Elige el cliente del estado de cuenta.',

  // Success alerts
  creadoCorrectamente: 'Creado correctamente',
  modificadoCorrectamente: 'Modificado correctamente',
  actualizadoCorrectamente: 'Actualizado correctamente',
} as const;

export type MessageKey = keyof typeof MSG;
