/** Upload limits both sides check (docs/domain.md "Files"): the browser before sending, the server by content. */

/** Largest accepted image (JPG or PNG): logos and product photos. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Largest accepted PDF (a client's calendar and manual). */
export const PDF_MAX_BYTES = 20 * 1024 * 1024;
