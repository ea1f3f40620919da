/**
 * What `npm run bench` measures, compiled the way `npm run build` compiles the server (esbuild, no
 * tsx): the benchmark times the code production runs.
 */
export { buildApp } from '../server/app';
export { loadConfig } from '../server/config';
export { toJsonSchema } from '../server/plugins/routeSchemas';
export { envelope } from '../server/routes/envelope';
export { takeBackup, backupOf, fetchVerified } from '../server/backups/tenantBackups';
export { loadTenantArchive } from '../server/backups/load';
export { folderStore } from '../server/backups/store';
export { discard } from '../server/backups/archive';
export { TENANT_TABLES, tenantRowsSql } from '../server/backups/tenantTables';
