/**
 * The benchmark's baseline: a bare Fastify route doing one primary-key SELECT through a `pg` pool of the
 * same size as the server's, on the same database; and the floor of a write (`transaccion`): a transaction
 * of five round trips as the cart's add makes them — BEGIN, a row locked, a read, a one-row upsert, COMMIT
 * (docs/benchmarks.md finding 71). Started by run.ts as its own process.
 * Env: DATABASE_URL, PORT, DB_POOL_SIZE.
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 20),
});
const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/baseline/:id', async (request) => {
  const { rows } = await pool.query('select id, usuario, nombre from users where id = $1', [
    Number(request.params.id),
  ]);
  return rows[0] ?? null;
});

// The write's own table, outside the portal's schema (an upsert of one row a user, no trigger, one index).
await pool.query('create table if not exists bench_floor (id integer primary key, n bigint not null)');

app.post<{ Params: { id: string } }>('/baseline/tx/:id', async (request) => {
  const id = Number(request.params.id);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select id from users where id = $1 for update', [id]);
    const { rows } = await client.query('select id, usuario, nombre from users where id = $1', [id]);
    await client.query(
      'insert into bench_floor (id, n) values ($1, 1) on conflict (id) do update set n = bench_floor.n + 1',
      [id],
    );
    await client.query('commit');
    return rows[0] ?? null;
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
});

await app.listen({ port: Number(process.env.PORT ?? 3599), host: '127.0.0.1' });
process.stdout.write('baseline ready\n');
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
