import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { VerifiedArchive } from './archive';
import { changedBy, rowsOf, TENANT_OWN_COLUMNS, TENANT_TABLES, tenantLiteral, type TenantTable } from './tenantTables';

/** Rows sent in one statement, and the most JSON text one statement carries (small: see archive.ts FETCH_ROWS). */
const BATCH_ROWS = 200;
const BATCH_BYTES = 512 * 1024;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The column list and the values taken from the archived row `r` for one table. */
function insertSql(spec: TenantTable, columns: string[], tenant: string): { head: string; tail: string } {
  const values = columns.map((c) => {
    if (c === 'tenant_id') return tenant;
    const check = spec.orphanable?.[c];
    return check ? `CASE WHEN r.${ident(c)} IS NOT NULL AND ${check} THEN r.${ident(c)} END` : `r.${ident(c)}`;
  });
  return {
    head: `insert into ${spec.table} (${columns.map(ident).join(', ')}) select ${values.join(', ')} from json_populate_recordset(null::${spec.table}, `,
    tail: `::json) r${spec.keepIf ? ` where ${spec.keepIf}` : ''}`,
  };
}

async function* batches(path: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: string[] = [];
  let bytes = 0;
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      yield `[${batch.join(',')}]`;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length) yield `[${batch.join(',')}]`;
}

/**
 * Replaces a tenant's data with a verified archive's, in one transaction: the tenant's apps are
 * locked first (ingestion's writes to them wait, then land after the restore), everything the
 * tenant holds is deleted, and the archive's rows go in, parents first. Works on any database and
 * any tenant: a restore names the server's own; a move names a tenant of another database.
 * Rows that point outside the tenant at something gone (a dashboard user whose portal account was
 * deleted) are left out, or their reference emptied, as listed in tenantTables.ts.
 * Answers the rows loaded per table.
 */
export async function loadTenantArchive(db: Db, archive: VerifiedArchive, target: { tenantId: string }, tx?: Db): Promise<Record<string, number>> {
  const run = async (t: Db) => {
    const tenant = tenantLiteral(target.tenantId);
    const locked = await rowsOf(t, sql.raw(`select id from analytics_tenants where id = ${tenant} for update`));
    if (locked.length === 0) throw new Error(`tenant ${target.tenantId} does not exist`);
    await t.execute(sql.raw(`select id from analytics_apps where tenant_id = ${tenant} for update`));
    // Apps first: their rows go with them (cascade); then what hangs off the tenant directly.
    await t.execute(sql.raw(`delete from analytics_apps where tenant_id = ${tenant}`));
    for (const spec of [...TENANT_TABLES].reverse()) {
      if (spec.scope === 'tenant') await t.execute(sql.raw(`delete from ${spec.table} where tenant_id = ${tenant}`));
    }
    const loaded: Record<string, number> = {};
    for (const spec of TENANT_TABLES) {
      const part = archive.manifest.tables.find((p) => p.table === spec.table);
      if (!part || part.rows === 0) {
        loaded[spec.table] = 0;
        continue;
      }
      const present = new Set((await rowsOf<{ name: string }>(t, sql`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${spec.table}`)).map((r) => r.name));
      // The archive's columns this schema still has: a column added since takes its default.
      const columns = part.columns.filter((c) => present.has(c) && !(spec.skip ?? []).includes(c));
      if (spec.scope === 'self') {
        const own = columns.filter((c) => !TENANT_OWN_COLUMNS.includes(c));
        for await (const json of batches(archive.partPath(spec.table))) {
          if (own.length) await t.execute(sql`${sql.raw(`update analytics_tenants set ${own.map((c) => `${ident(c)} = r.${ident(c)}`).join(', ')} from json_populate_recordset(null::analytics_tenants, `)}${json}${sql.raw(`::json) r where analytics_tenants.id = ${tenant}`)}`);
        }
        loaded[spec.table] = 1;
        continue;
      }
      const { head, tail } = insertSql(spec, columns, tenant);
      let count = 0;
      for await (const json of batches(archive.partPath(spec.table))) {
        count += await changedBy(t, sql`${sql.raw(head)}${json}${sql.raw(tail)}`);
      }
      loaded[spec.table] = count;
    }
    return loaded;
  };
  return tx ? run(tx) : db.transaction(run);
}
