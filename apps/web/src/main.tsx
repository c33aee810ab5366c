// First: before any module builds a schema (lib/zod-config.ts).
import './lib/zod-config';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { isPublicPath, loadFirstScreen } from './app/router';
import { sessionCheckQuery } from './lib/auth';
import { prefetchAtBoot } from './lib/boot-data';
import { queryClient } from './lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root');

/** The longest the page's spinner waits for the first screen's code and data before rendering anyway. */
const BOOT_WAIT_MS = 3_000;

/**
 * The session's check for this address and, beside the screen's code, the data it shows first (decision
 * 0141). The page already shows the spinner (index.html). Whatever is not here in time the screens ask for
 * themselves, as on any later navigation.
 */
async function firstScreen(): Promise<void> {
  const { pathname, search } = window.location;
  if (isPublicPath(pathname)) return;
  const check = sessionCheckQuery(pathname);
  const session = prefetchAtBoot(queryClient, check).then(() => queryClient.getQueryData(check.queryKey));
  const first = await loadFirstScreen({ pathname, search }, session);
  await Promise.all(first.map((options) => prefetchAtBoot(queryClient, options)));
}

const waited = new Promise((resolve) => setTimeout(resolve, BOOT_WAIT_MS));
void Promise.race([firstScreen().catch(() => undefined), waited]).then(() => {
  // A transition: React renders the first screen in slices, between which the page stays responsive.
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
