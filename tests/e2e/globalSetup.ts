import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { seedFirstAdmin } from '../../server/db/seed';
import { startDnsServer } from '../support/dnsServer';
import { startGoogleKeys, TEST_GOOGLE_CLIENT_ID } from '../support/google';
import { freePort } from '../support/net';
import { startSmtpSink } from '../support/smtpSink';

/**
 * Starts a real SMTP sink that writes each received mail as JSON into a mailbox folder, and the
 * built product on a free port with a fresh embedded database, sending its mail to that sink.
 */
export default async function globalSetup() {
  const root = mkdtempSync(join(tmpdir(), 'beacon-e2e-'));
  const mailbox = join(root, 'mailbox');
  mkdirSync(mailbox);
  let count = 0;
  const smtp = await startSmtpSink((mail) => {
    count += 1;
    // Written aside, then renamed: a reader never sees half a file.
    const file = join(mailbox, `${String(count).padStart(5, '0')}.json`);
    writeFileSync(`${file}.part`, JSON.stringify(mail));
    renameSync(`${file}.part`, file);
  });

  // Google's key endpoint, played by a local JWKS; tests sign ID tokens with the key file.
  const google = await startGoogleKeys();
  const googleKeyFile = join(root, 'google-key.json');
  writeFileSync(googleKeyFile, JSON.stringify(google.privateJwk));

  // Custom domains' DNS: a server on loopback answering from a zone file the tests write (dns.ts).
  const dnsZone = join(root, 'dns-zone.json');
  const dns = await startDnsServer({ zoneFile: dnsZone });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: join(root, 'data'),
    DATABASE_URL: undefined,
    STATIC_DIR: './dist',
    SMTP_URL: smtp.url,
    GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
    GOOGLE_JWKS_URL: google.jwksUrl,
    DNS_SERVERS: dns.server,
    // One browser signs in many times from one address in these tests.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '1000',
    // Running servers (servers.spec.ts): machines boot in seconds, a deletion waits 20 s, and the
    // mock cloud refuses every user unlock so a provider failure can be watched; a failing task
    // gives up after two quick attempts.
    CALL_BOOKING_URL: 'https://calendar.example.com/beacon/30-minutes',
    AFFILIATE_URL: 'https://partners.example.com/beacon',
    TERMS_URL: 'https://legal.example.com/terms',
    PRIVACY_URL: 'https://legal.example.com/privacy',
    MOCK_CLOUD_BOOT_MS: '6000',
    MOCK_CLOUD_CALL_MS: '100',
    DELETION_GRACE_SECONDS: '20',
    MOCK_CLOUD_FAILURE_RATE: '1',
    MOCK_CLOUD_FAILING_CALLS: 'unlockUsers',
    TASK_MAX_ATTEMPTS: '2',
    TASK_RETRY_DELAY_SECONDS: '1',
    // admin.spec.ts: a server named "Flaky..." fails both provisioning attempts, so an admin's
    // retry of the failed task (the third machine creation) brings it up.
    MOCK_CLOUD_FLAKY_SERVERS: 'Flaky',
    MOCK_CLOUD_FLAKY_CALLS: 'createMachine:2',
  });
  const app = await buildApp(config);
  const admin = { email: 'admin@e2e.example.com', password: 'Admin#Pass-2026' };
  await seedFirstAdmin(app.database.db, admin);
  // The admin has finished onboarding: a company of its own.
  const [adminRow] = await app.database.rows<{ id: string }>(`select id from users where email = '${admin.email}'`);
  if (adminRow) await app.companies.createCompany({ id: adminRow.id }, { body: { name: 'Beacon Ops' } });
  await app.listen({ host: '127.0.0.1', port });
  process.env.E2E_ADMIN_EMAIL = admin.email;
  process.env.E2E_ADMIN_PASSWORD = admin.password;
  process.env.BASE_URL = baseUrl;
  process.env.MAILBOX_DIR = mailbox;
  process.env.DNS_ZONE_FILE = dnsZone;
  process.env.E2E_GOOGLE_KEY_FILE = googleKeyFile;
  return async () => {
    await app.close();
    await smtp.close();
    await google.close();
    await dns.close();
    rmSync(root, { recursive: true, force: true });
  };
}
