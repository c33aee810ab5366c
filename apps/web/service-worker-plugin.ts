import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'vite';

/** Public files of the shell kept beside the build's entry (apps/web/public). */
const PUBLIC_SHELL = ['/manifest.webmanifest', '/favicon.svg', '/icon-192.png'];

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** The entry's script, the scripts it imports at once and their stylesheets: what the first screen needs. */
export function shellFiles(manifest: Record<string, ManifestEntry>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || files.has(`/${entry.file}`)) return;
    files.add(`/${entry.file}`);
    for (const css of entry.css ?? []) files.add(`/${css}`);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry) visit(key);
  return [...files, ...PUBLIC_SHELL];
}

/**
 * Builds src/service-worker/sw.ts into /sw.js once the app is built (decision 0118): a separate bundle (a
 * worker has no DOM and loads no chunks), told which files make the shell and the build's version, read
 * from the build's manifest. The version changes with every build whose shell changes, so a new build's
 * worker replaces the old one and its caches.
 */
export function serviceWorker(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'portal-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
        string,
        ManifestEntry
      >;
      const files = shellFiles(manifest);
      const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        define: {
          __SHELL_FILES__: JSON.stringify(files),
          __BUILD_VERSION__: JSON.stringify(version),
        },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          manifest: false,
          minify: true,
          lib: {
            entry: path.join(root, 'src/service-worker/sw.ts'),
            formats: ['iife'],
            name: 'portalServiceWorker',
            fileName: () => 'sw.js',
          },
        },
      });
    },
  };
}
