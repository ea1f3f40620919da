import pg from 'pg';

/**
 * Runs `work` on a scratch database made beside the one `DATABASE_URL` names and dropped after:
 * the benchmarks' PostgreSQL runs, which must not touch the operator's data.
 */
export async function onScratchPostgres(databaseUrl: string, work: (url: string) => Promise<void>): Promise<void> {
  const name = `beacon_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** DATABASE_URL when it names PostgreSQL: the benchmarks then run there too. */
export const benchPostgresUrl = (): string | undefined => (process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined);
