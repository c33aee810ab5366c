import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOG_EVENT_LABELS, logEventLabel } from '@portal/shared/domain/log-events';
import { describe, expect, it } from 'vitest';
import { readSourceIfPresent } from '../test/source-tree.ts';

/**
 * Every event type the server writes to the system log has a Spanish label (packages/shared/src/domain/
 * log-events.ts), read from the code itself: the expression after each `eventType:` of the server's
 * sources (tests aside), every quoted type in it (a conditional names several), and each
 * `'type' satisfies LogEventType` of a statement that writes the log in SQL.
 */
const src = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return ['migrations', 'test', 'schema'].includes(e.name) ? [] : sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The types each file writes: the quoted words of the expression after `eventType:`, up to the next property. */
export function writtenTypes(code: string): string[] {
  const types: string[] = [];
  for (const m of code.matchAll(/\beventType:\s*([^;{}]*?),\s*\n\s*[a-zA-Z_]+:/g)) {
    // A comparison's literal (`purpose === 'bienvenida' ? …`) is not a type.
    const expression = m[1]!.replace(/[!=]==\s*'[^']*'/g, '');
    for (const q of expression.matchAll(/'([a-z0-9_]+)'/g)) types.push(q[1]!);
  }
  // A type written by SQL (the purchase's one statement) is checked by `satisfies LogEventType`.
  for (const m of code.matchAll(/'([a-z0-9_]+)' satisfies LogEventType/g)) types.push(m[1]!);
  return types;
}

describe('system log event labels', () => {
  const written = new Map<string, string>();
  for (const file of sources(src)) {
    // Another test's probe, gone since the listing, reads as empty (test/source-tree.ts).
    for (const type of writtenTypes(readSourceIfPresent(file))) written.set(type, path.relative(src, file));
  }

  it('reads the written types, conditional ones included', () => {
    expect(
      writtenTypes(
        "await audit(tx, {\n  userId: 1,\n  eventType: ok\n    ? 'a_b'\n    : 'c',\n  description: 'x',\n",
      ),
    ).toEqual(['a_b', 'c']);
    expect(writtenTypes("{\n  eventType: p === 'x' ? 'y' : 'z',\n  description: 'd',\n")).toEqual(['y', 'z']);
    // The scan found the server's writers, not nothing.
    expect(written.size).toBeGreaterThan(40);
    for (const t of [
      'login',
      'producto_activado',
      'producto_desactivado',
      'password_establecida',
      'registros_exportados',
    ])
      expect(written.has(t), t).toBe(true);
  });

  it('every type the server writes has a Spanish label', () => {
    const missing = [...written]
      .filter(([t]) => !Object.hasOwn(LOG_EVENT_LABELS, t))
      .map(([t, f]) => `${t} (${f})`);
    expect(missing).toEqual([]);
  });

  it('every label names a type the server writes (no stale entries)', () => {
    expect(Object.keys(LOG_EVENT_LABELS).filter((t) => !written.has(t))).toEqual([]);
  });

  it('an unknown type (an older entry) shows as written', () => {
    expect(logEventLabel('pedido_aprobado')).toBe('Pedido aprobado');
    expect(logEventLabel('tipo_antiguo')).toBe('tipo_antiguo');
  });
});
