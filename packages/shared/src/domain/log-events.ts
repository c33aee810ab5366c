/**
 * The event types the server writes to the system log, with the Spanish label the log screen and its CSV
 * show. `audit()` (apps/server/src/lib/audit.ts) accepts only these types, and
 * apps/server/src/lib/log-events.test.ts reads every type the server's code writes and fails when one has
 * no label here.
 */
export const LOG_EVENT_LABELS = {
  login: 'Inicio de sesión',
  logout: 'Cierre de sesión',
  login_fallido: 'Inicio de sesión fallido',
  login_rechazado: 'Inicio de sesión rechazado',
  login_bloqueado: 'Acceso bloqueado por intentos fallidos',
  login_2fa_pendiente: 'Inicio de sesión en espera del segundo paso',
  login_2fa_fallido: 'Código de verificación incorrecto al entrar',
  login_sso_fallido: 'Inicio de sesión con la cuenta de la empresa fallido',
  password_cambiada: 'Contraseña cambiada',
  password_recuperacion: 'Recuperación de contraseña solicitada',
  password_establecida: 'Contraseña establecida',
  password_restablecida: 'Contraseña restablecida',
  password_reset_admin: 'Contraseña restablecida por el administrador',
  '2fa_iniciada': 'Activación de dos pasos iniciada',
  '2fa_activada': 'Verificación en dos pasos activada',
  '2fa_desactivada': 'Verificación en dos pasos desactivada',
  '2fa_restablecida': 'Verificación en dos pasos restablecida',
  '2fa_codigos_regenerados': 'Códigos de respaldo regenerados',
  '2fa_verificacion_fallida': 'Código de activación de dos pasos incorrecto',
  pedido_creado: 'Pedido creado',
  pedido_editado: 'Pedido editado',
  pedido_aprobado: 'Pedido aprobado',
  pedido_cancelado: 'Pedido cancelado',
  pedido_retirado: 'Pedido retirado por el comprador',
  pedido_devuelto: 'Pedido devuelto al primer nivel',
  pedido_escalado: 'Pedido escalado por su espera',
  pedido_surtido: 'Surtido del pedido actualizado',
  surtido_exportado: 'Pedidos exportados para surtir',
  surtido_lista: 'Lista de surtido descargada',
  pedido_comentado: 'Comentario en un pedido',
  reporte_generado: 'Reporte generado',
  registros_exportados: 'Registros del sistema exportados',
  delegacion_guardada: 'Fuera de oficina guardado',
  delegacion_terminada: 'Fuera de oficina terminado',
  cliente_creado: 'Cliente creado',
  cliente_actualizado: 'Cliente modificado',
  usuario_creado: 'Usuario creado',
  usuario_actualizado: 'Usuario modificado',
  usuarios_desactivados_lote: 'Usuarios desactivados en lote',
  usuarios_sincronizados: 'Lista de personal aplicada',
  accesos_reenviados: 'Accesos reenviados',
  presupuesto_solicitado: 'Presupuesto por encima del tope solicitado',
  area_creada: 'Área creada',
  area_modificada: 'Área modificada',
  area_eliminada: 'Área eliminada',
  area_transferencia: 'Presupuesto transferido entre áreas',
  ampliacion_solicitada: 'Ampliación de presupuesto solicitada',
  ampliacion_aprobada: 'Ampliación de presupuesto aprobada',
  ampliacion_rechazada: 'Ampliación de presupuesto rechazada',
  presupuesto_aprobado: 'Presupuesto solicitado aprobado',
  presupuesto_rechazado: 'Presupuesto solicitado rechazado',
  producto_creado: 'Producto creado',
  producto_modificado: 'Producto modificado',
  producto_activado: 'Producto activado',
  producto_desactivado: 'Producto desactivado',
  productos_activados_lote: 'Productos activados en lote',
  productos_desactivados_lote: 'Productos desactivados en lote',
  categoria_creada: 'Categoría creada',
  categoria_modificada: 'Categoría modificada',
  asignacion_actualizada: 'Asignación de productos modificada',
  asignaciones_copiadas: 'Asignaciones copiadas de otro usuario',
  asignacion_lote: 'Productos asignados a varios usuarios',
  semana_creada: 'Semana de acceso creada',
  semana_actualizada: 'Semana de acceso modificada',
  semana_eliminada: 'Semana de acceso eliminada',
  semanas_generadas: 'Semanas de acceso generadas',
  importacion_iniciada: 'Importación iniciada',
  importacion_terminada: 'Importación terminada',
  importacion_fallida: 'Importación fallida',
  token_creado: 'Token de integración creado',
  token_revocado: 'Token de integración revocado',
  webhook_creado: 'Webhook registrado',
  webhook_desactivado: 'Webhook desactivado',
  webhook_reenviado: 'Entrega de webhook reenviada',
  sso_configurado: 'Inicio de sesión con la cuenta de la empresa configurado',
  sso_eliminado: 'Inicio de sesión con la cuenta de la empresa eliminado',
  scim_token_creado: 'Token de aprovisionamiento (SCIM) creado',
  scim_token_revocado: 'Token de aprovisionamiento (SCIM) revocado',
  usuario_baja_scim: 'Usuario dado de baja por aprovisionamiento (SCIM)',
  datos_depurados: 'Datos antiguos depurados',
} as const satisfies Record<string, string>;

export type LogEventType = keyof typeof LOG_EVENT_LABELS;

export function isLogEventType(value: string): value is LogEventType {
  return Object.hasOwn(LOG_EVENT_LABELS, value);
}

/** The Spanish label of an event type; a type the map does not know (older entries) shows as written. */
export function logEventLabel(type: string): string {
  return isLogEventType(type) ? LOG_EVENT_LABELS[type] : type;
}
