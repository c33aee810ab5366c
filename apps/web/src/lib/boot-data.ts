/**
 * The first screen's data, asked for while its code downloads (decision 0141): the boot (main.tsx) asks
 * for the session and then for the data the opened page shows first, and renders once they are here, so
 * the page's first render already holds its data instead of rendering empty and then again, blocking, when
 * each answer arrives.
 */
import type { SessionResponse } from '@portal/shared/schemas/auth';
import type { FetchQueryOptions, QueryClient } from '@tanstack/react-query';

/** What a page asks for first: the same query options its screen passes to useQuery. */
// biome-ignore lint/suspicious/noExplicitAny: each page's own data and key types; only the key and the fetch matter here.
export type FirstQuery = FetchQueryOptions<any, any, any, any>;

/** What a role area's page module is told of the address opened, to say what its screen shows first. */
export interface FirstScreenContext {
  session: SessionResponse;
  /** The page's path parameters (`:id`). */
  params: Readonly<Record<string, string | undefined>>;
  search: URLSearchParams;
  pathname: string;
}

/** The queries a page renders first, from its address and the session. */
export type FirstData = (context: FirstScreenContext) => FirstQuery[];

/** How long an answer asked for at boot counts as the first screen's own check. */
const BOOT_FRESH_MS = 10_000;

/** Each boot answer's query, with the moment it arrived. */
const loadedAtBoot = new Map<string, number>();

/** Asks for one query at boot (once, no retry: the screen asks again on failure) and remembers its answer. */
export async function prefetchAtBoot(client: QueryClient, options: FirstQuery): Promise<void> {
  await client.prefetchQuery({ ...options, retry: false });
  const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
  if (query?.state.status === 'success') loadedAtBoot.set(query.queryHash, query.state.dataUpdatedAt);
}

/**
 * The `staleTime` of a query its screen asks again on every entry (the session's check, the orders' list):
 * the boot's own answer, fresh from seconds ago, is this entry's; any later one is stale at once.
 */
export function freshFromBoot(query: { queryHash: string; state: { dataUpdatedAt: number } }): number {
  return loadedAtBoot.get(query.queryHash) === query.state.dataUpdatedAt ? BOOT_FRESH_MS : 0;
}
