// Drops and creates again the database of DATABASE_URL (the browser tests' server then migrates it and
// seeds the demo data, as it does on a new embedded database). Connects to the `postgres` maintenance
// database of the same server; refuses the maintenance and template databases.
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('fresh-database: falta DATABASE_URL');
  process.exit(1);
}
const target = new URL(url);
const name = decodeURIComponent(target.pathname.slice(1));
if (!name || ['postgres', 'template0', 'template1'].includes(name)) {
  console.error(`fresh-database: no se borra la base de datos «${name}»`);
  process.exit(1);
}
const maintenance = new URL(url);
maintenance.pathname = '/postgres';
const client = new pg.Client({ connectionString: maintenance.href });
await client.connect();
try {
  const quoted = client.escapeIdentifier(name);
  await client.query(`drop database if exists ${quoted} with (force)`);
  await client.query(`create database ${quoted}`);
} finally {
  await client.end();
}
