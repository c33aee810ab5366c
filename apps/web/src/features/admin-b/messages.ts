/**
 * Texts of the administrator's inventory, logs and overview screens that the shared catalogue
 * (packages/shared/src/messages.ts) does not hold. The spec's are word for word (§2, §5).
 */
export const TXT = {
  /** Spec §5: admin enable/disable confirmation. */
  confirmarTitulo: '¿Estás seguro?',
  /** Spec §5 (new client, product image): JPG or PNG only. */
  soloJpgPng: 'Only JPG and PNG files are allowed.',
  imagenPesada: 'La imagen excede el tamaño máximo de 5 MB.',
  /** Spec §2 logs. */
  metadataCopiada: 'Metadata copiada al portapapeles!',
  copiaFallida: 'No se pudo copiar al portapapeles. Selecciona el texto y cópialo manualmente.',
} as const;

/** Largest product image the server accepts (DOMAIN.md "Files"). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
