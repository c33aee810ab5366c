#!/usr/bin/env node
/**
 * `npm run test:calendar`: the date-sensitive suites (budgets and months, weeks, dashboards, alerts,
 * reminders, passwords and links, reports, the log's dates, the clock) run with the machine's clock moved
 * by Debian's libfaketime to the days that break date arithmetic — the first of a month at 00:30 business
 * time, the last of a month at 23:30, 29 February 2028, 31 December at 23:59, 1 January at 00:01 — each
 * with the machine in UTC and in Europe/Madrid (a zone with summer time, hours away from the business
 * zone). Decision 0093; the README's test section lists the matrix.
 *
 * Usage:
 *   npm run test:calendar                                  every instant, both zones (10 runs)
 *   npm run test:calendar -- --at primero-de-mes           one instant (both zones)
 *   npm run test:calendar -- --at primero-de-mes --tz UTC  one instant, one zone (what .ci/run does)
 *
 * Every test process starts at the instant (libfaketime's "start at": each process's clock begins there
 * and runs on). Only the embedded database runs: its clock is the process's; a PostgreSQL server keeps
 * its own (the API suites run on it in `npm test`). Exits 1 if any run fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
].find((p) => existsSync(p));

/**
 * The instants, in business time (America/Mexico_City: UTC-6 all year since 2022). A run takes a couple of
 * minutes: the one a minute before midnight runs every test file in a process of its own (each starts at
 * the instant), the others share two processes as `npm test` does.
 */
const INSTANTS = {
  'primero-de-mes': { at: '2026-12-01T00:30:00-06:00' },
  'ultimo-de-mes': { at: '2027-03-31T23:30:00-06:00' },
  bisiesto: { at: '2028-02-29T12:00:00-06:00' },
  'fin-de-anio': { at: '2026-12-31T23:59:00-06:00', isolate: true },
  'anio-nuevo': { at: '2027-01-01T00:01:00-06:00' },
};
const ZONES = ['UTC', 'Europe/Madrid'];

/**
 * The date-sensitive suites. Not the architecture test's "one clock" check: it reads the source, whatever
 * the date, and its probes write files into the tree that a run beside `npm test` (.ci/run) would see.
 */
const SUITES = [
  'packages/shared/src',
  'apps/server/src/clock.api.test.ts',
  'apps/server/src/modules/dashboard/dashboard.api.test.ts',
  'apps/server/src/modules/orders/budget-alerts.api.test.ts',
  'apps/server/src/modules/approval/reminders.api.test.ts',
  'apps/server/src/modules/notifications/notifications.api.test.ts',
  'apps/server/src/modules/approval/delegation.api.test.ts',
  'apps/server/src/modules/approval/approval-budget.api.test.ts',
  'apps/server/src/modules/orders/running-totals.api.test.ts',
  'apps/server/src/modules/approval/authorizer.api.test.ts',
  'apps/server/src/modules/shopping/shopping.api.test.ts',
  'apps/server/src/modules/shopping/history-filters.api.test.ts',
  'apps/server/src/modules/weeks/weeks.api.test.ts',
  'apps/server/src/plugins/session-cache.api.test.ts',
  'apps/server/src/modules/auth/auth.api.test.ts',
  'apps/server/src/modules/users/users.api.test.ts',
  'apps/server/src/modules/logs/logs.api.test.ts',
  'apps/server/src/modules/integration/v1.api.test.ts',
  'apps/server/src/modules/fulfilment/claims.api.test.ts',
  'apps/server/src/modules/fulfilment/receipts.api.test.ts',
  'apps/server/src/modules/inventory/scheduled-prices.api.test.ts',
  'apps/server/src/seed/seed.test.ts',
];

function option(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** The wall-clock time of an instant in a zone, as libfaketime reads FAKETIME ("@YYYY-MM-DD HH:MM:SS"). */
function wallTime(instant, zone) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

if (!LIBFAKETIME) {
  process.stderr.write(
    'test:calendar necesita libfaketime de Debian: apt-get install -y faketime (o libfaketime)\n',
  );
  process.exit(1);
}
// A suite that moved would otherwise drop out silently (vitest takes the paths as filters).
const missing = SUITES.filter((suite) => !existsSync(path.join(root, suite)));
if (missing.length) {
  process.stderr.write(`test:calendar: no existe ${missing.join(', ')}; corrige la lista SUITES\n`);
  process.exit(2);
}
const at = option('at');
const tz = option('tz');
const names = at ? at.split(',') : Object.keys(INSTANTS);
for (const name of names)
  if (!(name in INSTANTS)) {
    process.stderr.write(
      `--at: ${name} no es un instante de la matriz (${Object.keys(INSTANTS).join(', ')})\n`,
    );
    process.exit(2);
  }
const zones = tz ? tz.split(',') : ZONES;

const failed = [];
for (const name of names) {
  for (const zone of zones) {
    const { at: instant, isolate } = INSTANTS[name];
    const started = performance.now();
    process.stdout.write(`\n== test:calendar ${name} (${instant}), máquina en ${zone}\n`);
    const env = {
      ...process.env,
      TZ: zone,
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME: `@${wallTime(instant, zone)}`,
      // Timers and elapsed times keep the real monotonic clock; only the date moves.
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
    // The embedded database only: a PostgreSQL server's now() is not the process's.
    delete env.TEST_DATABASE_URL;
    const result = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--project',
        'shared',
        '--project',
        'server',
        ...(isolate ? ['--isolate'] : []),
        ...SUITES,
      ],
      { cwd: root, env, stdio: 'inherit' },
    );
    const seconds = Math.round((performance.now() - started) / 1000);
    process.stdout.write(
      `== test:calendar ${name} en ${zone}: ${result.status === 0 ? 'bien' : 'FALLÓ'} (${seconds} s)\n`,
    );
    if (result.status !== 0) failed.push(`${name} en ${zone}`);
  }
}
if (failed.length) {
  process.stdout.write(`\n== test:calendar falló en: ${failed.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write(`\n== test:calendar: ${names.length * zones.length} corridas, todas bien\n`);
