import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Mantine's stylesheets are split (decision 0105): the provider imports the base and the components any
 * screen may show; a component of some screens only has its stylesheet imported by each module that uses it
 * (with the stylesheets it builds on first). A component used without its rules would render unstyled, so
 * this walks the sources and fails on one.
 */
const SRC = path.resolve(__dirname, '..');
const STYLES = path.resolve(SRC, '../../../node_modules/@mantine/core/styles');

/** The route-level components and the stylesheets each needs, in Mantine's order. */
const ROUTE: Record<string, string[]> = {
  Table: ['Table'],
  Timeline: ['Timeline'],
  Tabs: ['Tabs'],
  SegmentedControl: ['FloatingIndicator', 'SegmentedControl'],
  Pagination: ['Pagination'],
  Progress: ['Progress'],
  Kbd: ['Kbd'],
  Code: ['Code'],
  // ColorSwatch is in the provider (ColorInput's swatches use it).
  ColorInput: ['ColorPicker', 'ColorInput'],
  Avatar: ['Avatar'],
  Indicator: ['Indicator'],
  Drawer: ['Drawer'],
  Image: ['Image'],
  Grid: ['Grid'],
  MultiSelect: ['Pill', 'PillsInput'],
  // A compound component has a sheet of its own: Radio.Card's is RadioCard.
  'Radio.Card': ['RadioCard'],
};

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) sources(file, out);
    else if (/\.tsx?$/.test(name) && !/\.test\./.test(name)) out.push(file);
  }
  return out;
}

/** The runtime names a module imports from @mantine/core. */
function mantineImports(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
    for (const raw of m[1]!.split(',')) {
      const name = raw
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name && !name.startsWith('type ') && /^[A-Z]/.test(name)) names.push(name);
    }
  }
  // Compound parts used in JSX (`<Radio.Card`) of the components imported above.
  for (const m of text.matchAll(/<([A-Z]\w*)\.([A-Z]\w*)/g))
    if (names.includes(m[1]!)) names.push(`${m[1]}.${m[2]}`);
  return [...new Set(names)];
}

/** The stylesheet a component's name points at: `Radio.Card` → RadioCard. */
const sheetOf = (name: string) => name.replace('.', '');

const cssImport = (component: string) => `import '@mantine/core/styles/${component}.css';`;
const provider = readFileSync(path.join(SRC, 'app/provider.tsx'), 'utf8');
const shell = new Set([...provider.matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((m) => m[1]!));
const routeStyles = new Set(Object.values(ROUTE).flat());

describe("Mantine's stylesheets, split by route", () => {
  it('the provider imports no route-level stylesheet, and not the whole styles.css', () => {
    expect(provider).not.toContain("'@mantine/core/styles.css'");
    expect([...shell].filter((c) => routeStyles.has(c))).toEqual([]);
    expect(shell.has('baseline') && shell.has('global') && shell.has('Button')).toBe(true);
  });

  it('every module that uses a route-level component imports its stylesheets', () => {
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const name of mantineImports(text)) {
        for (const css of ROUTE[name] ?? []) {
          if (!text.includes(cssImport(css))) missing.push(`${path.relative(SRC, file)}: ${css}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every component the portal uses that has a stylesheet is styled: in the provider, or by route', () => {
    const unstyled = new Set<string>();
    for (const file of sources(SRC)) {
      for (const name of mantineImports(readFileSync(file, 'utf8'))) {
        const sheet = sheetOf(name);
        if (existsSync(path.join(STYLES, `${sheet}.css`)) && !shell.has(sheet) && !ROUTE[name])
          unstyled.add(name);
      }
    }
    expect([...unstyled]).toEqual([]);
  });
});
