/** Ports of the browser-test server and its SMTP catcher; override to run two suites side by side. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
