/**
 * The benchmark's baseline: a bare Fastify route doing one primary-key SELECT through a `pg` pool of the
 * same size as the server's, on the same database. Started by run.ts as its own process.
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

await app.listen({ port: Number(process.env.PORT ?? 3599), host: '127.0.0.1' });
process.stdout.write('baseline ready\n');
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
