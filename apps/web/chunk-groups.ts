/**
 * The signed-in screens' code in a dozen files instead of about eighty (decision 0135).
 *
 * Left to itself the bundler makes one chunk per distinct set of lazy modules that share a module, and the
 * role areas share components in many combinations: opening the catalogue asked for 78 files, most of them
 * 0.3–5 kB, each a request and an answer of its own on a phone's connection (six at a time over HTTP/1.1).
 *
 * So the build runs twice. The first build (nothing written) splits as the bundler likes; its chunks say
 * which modules each screen really loads (after tree-shaking: a barrel such as @mantine/core's index is one
 * import but only the components used are in a chunk). From it every module gets a group:
 * - what the entry loads stays as the bundler put it;
 * - what the sign-in screen loads besides the entry is one chunk, `acceso` (the same bytes as before for
 *   /login, in one file: its budget is unchanged);
 * - what the signed-in layout loads besides those is `shell`;
 * - the rest of what an area loads at once is grouped by the set of areas that may need it (those that load
 *   it at once, and those that open a lazy part — a dialog, a panel — that needs it): `area-u` for the
 *   buyer's alone, `area-u-a` for what the buyer's and the approver's share, and so on;
 * - what only a lazy part loads stays lazy, where the bundler put it.
 * The second build, the one written, puts each group in one chunk. A module's static imports are in the
 * entry, `acceso`, `shell` or a group of the same or more areas, never of fewer: the chunks import each
 * other one way, without cycles, and each module still runs after what it imports.
 */
import { build, type InlineConfig, type Rolldown } from 'vite';

/** The lazy route modules, relative to apps/web (src/app/router.tsx). */
const SIGN_IN = ['src/app/routes/auth/layout.tsx', 'src/app/routes/auth/login.tsx'];
const SHELL = 'src/app/routes/app-shell.tsx';
/** The role areas and the dashboards' own modules, by the short name their chunks carry. */
const AREAS: Record<string, string> = {
  u: 'src/app/routes/usuario/pages.tsx',
  a: 'src/app/routes/autorizador/pages.tsx',
  x: 'src/app/routes/administrador/pages.tsx',
  c: 'src/app/routes/cliente/pages.tsx',
  at: 'src/app/routes/autorizador/tablero.tsx',
  xt: 'src/app/routes/administrador/tablero.tsx',
};

type Chunk = Rolldown.OutputChunk;

/** Each module's group, from a build split by the bundler alone (`config` with nothing written). */
export async function chunkGroups(config: InlineConfig): Promise<Map<string, string>> {
  const root = config.root!;
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'silent',
    build: { ...config.build, write: false, manifest: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c): c is Chunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const byFacade = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
  const rootChunk = (file: string): Chunk => {
    const chunk = byFacade.get(`${root}/${file}`);
    if (!chunk) throw new Error(`chunk-groups: la compilación no tiene un chunk para ${file}`);
    return chunk;
  };

  /** The chunk files that loading `chunk` loads at once: itself and its static imports, transitively. */
  const loads = (chunk: Chunk, into = new Set<string>()): Set<string> => {
    if (into.has(chunk.fileName)) return into;
    into.add(chunk.fileName);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) loads(next, into);
    }
    return into;
  };

  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('chunk-groups: la compilación no tiene entrada');
  const front = loads(entry);
  const signIn = new Set(SIGN_IN.flatMap((f) => [...loads(rootChunk(f))]));
  const shell = loads(rootChunk(SHELL));
  const areas = new Map(Object.entries(AREAS).map(([name, file]) => [name, loads(rootChunk(file))]));

  // The areas that may open each lazy part: those whose chunks import it dynamically. A part opened only
  // from another part (or from the shell) counts for every area.
  const routeRoots = new Set([...SIGN_IN, SHELL, ...Object.values(AREAS)].map((f) => `${root}/${f}`));
  const areasLoading = (file: string): string[] => {
    if (shell.has(file) || front.has(file)) return Object.keys(AREAS);
    return [...areas].filter(([, files]) => files.has(file)).map(([name]) => name);
  };
  const partOwners = new Map<string, Set<string>>();
  for (const chunk of chunks) {
    for (const lazy of chunk.dynamicImports) {
      const part = byFile.get(lazy);
      if (!part || (part.facadeModuleId && routeRoots.has(part.facadeModuleId))) continue;
      const owners = partOwners.get(lazy) ?? new Set<string>();
      const from = areasLoading(chunk.fileName);
      for (const name of from.length ? from : Object.keys(AREAS)) owners.add(name);
      partOwners.set(lazy, owners);
    }
  }
  const partLoads = [...partOwners].map(([file, owners]) => ({ files: loads(byFile.get(file)!), owners }));

  const groups = new Map<string, string>();
  for (const chunk of chunks) {
    const file = chunk.fileName;
    let group: string | undefined;
    if (front.has(file)) continue;
    if (signIn.has(file)) group = 'acceso';
    else if (shell.has(file)) group = 'shell';
    else {
      const names = new Set(areasLoading(file));
      // Loaded by no area at once: a lazy part's own code stays lazy.
      if (!names.size) continue;
      for (const part of partLoads) if (part.files.has(file)) for (const n of part.owners) names.add(n);
      group = `area-${Object.keys(AREAS)
        .filter((n) => names.has(n))
        .join('-')}`;
    }
    // A route's own module stays the facade of its lazy chunk (the router imports it; the warm-up too).
    for (const id of chunk.moduleIds) if (!routeRoots.has(id)) groups.set(id, group);
  }
  return groups;
}
