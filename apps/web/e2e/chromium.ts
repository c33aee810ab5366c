import { existsSync } from 'node:fs';

/**
 * Debian's Chromium for the browser tests, never a downloaded browser. The headless shell
 * (`apt-get install -y chromium-headless-shell`) is preferred: it renders the same pages with the same
 * engine for about a quarter less CPU than the full browser in its headless mode (decision 0052); the full
 * `chromium` package is used when the shell is not installed.
 */
const CANDIDATES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'];

export const CHROMIUM: string | undefined = CANDIDATES.find((path) => existsSync(path));
