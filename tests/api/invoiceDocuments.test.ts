import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadStartConfig } from '../../server/config';
import type { InvoiceDocument } from '../../src/domain/payments/invoice';
import { taxTreatment } from '../../src/domain/pricing/tax';
import { companyOwner, loadCatalogue, orderBody, pay, postOrder, type Catalogue } from '../support/orders';
import { createTestApp, tableCounts, type TestApp } from '../support/testApp';

/**
 * Invoices a finance team accepts: the seller's legal details are required in production, the
 * buyer's billing address, each line's server and service period, options named as on the order,
 * the reverse charge of an EU business in another member state, and a receipt that is a document.
 */

const SELLER = { SELLER_NAME: 'Beacon Analytics GmbH', SELLER_ADDRESS: 'Hauptstraße 1 | 10115 Berlin', SELLER_TAX_ID: 'DE123456789' };
const limits = { AUTH_RATE_LIMIT_PER_MINUTE: '10000', AUTH_ACCOUNT_LIMIT_PER_15_MINUTES: '10000' };
const LEGAL = 'Reverse charge: VAT to be accounted for by the recipient, Article 196, Council Directive 2006/112/EC.';

let t: TestApp; // a seller in Germany (stand-in payments: we issue the invoices)
let cat: Catalogue;

beforeAll(async () => {
  t = await createTestApp({ ...limits, ...SELLER });
  cat = await loadCatalogue(t.app);
}, 180_000);
afterAll(async () => {
  await t.close();
});

const get = (app: FastifyInstance, url: string, cookie: string) => app.inject({ method: 'GET', url, headers: { cookie } });
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const invoiceUrl = (companyId: string, txId: string) => `/api/v1/companies/${companyId}/transactions/${txId}/invoice`;
const receiptUrl = (companyId: string, txId: string) => `/api/v1/companies/${companyId}/transactions/${txId}/receipt`;
const day = (iso: string | Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
const putCompany = (owner: { companyId: string; cookie: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/companies/${owner.companyId}`, payload, headers: { cookie: owner.cookie } });
const companyRow = async (companyId: string) =>
  (await t.app.database.rows<Record<string, string | null>>(`select name, billing_country, tax_id, billing_address, billing_postal_code, billing_city from companies where id = '${companyId}'`))[0];

/** A company owner whose company is set as given, with one paid order (stand-in): the transaction and its frozen invoice. */
async function paid(email: string, company: Record<string, unknown>, order: Record<string, unknown> = {}) {
  const owner = await companyOwner(t.app, email);
  const put = await putCompany(owner, { name: `Company of ${email.split('@')[0]}`, ...company });
  expect(put.statusCode).toBe(200);
  const created = await postOrder(t.app, owner.cookie, orderBody(cat, owner, order));
  expect(created.statusCode).toBe(201);
  const deploymentId = created.json().payload._id as string;
  expect((await pay(t.app, owner.cookie, deploymentId)).statusCode).toBe(200);
  const [tx] = await t.app.database.rows<{ id: string; invoice_number: string; invoice: InvoiceDocument; subtotal: string; tax: string; total: string; billed_at: string }>(
    `select id, invoice_number, invoice, subtotal::text, tax::text, total::text, to_json(billed_at) #>> '{}' as billed_at from transactions where deployment_id = '${deploymentId}'`,
  );
  if (!tx) throw new Error('no transaction recorded');
  return { owner, deploymentId, tx };
}

describe('the seller on every invoice: required in production', () => {
  it('refuses a production start without a mail server or the seller’s legal name, address and tax id, naming each; other starts go on', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadStartConfig(env);
        return null;
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
    };
    const production = refusal({ NODE_ENV: 'production' });
    expect(production).toMatch(/SELLER_NAME: required in production/);
    expect(production).toMatch(/SELLER_ADDRESS: required in production/);
    expect(production).toMatch(/SELLER_TAX_ID: required in production/);
    expect(production).toMatch(/SMTP_URL: required in production/);
    // Production because of its settings (no NODE_ENV), one of three missing, or blank: refused.
    expect(refusal({ SMTP_URL: 'smtp://mail.example.com:587', STARTED_BY: 'npm-start', SELLER_NAME: 'Beacon GmbH', SELLER_ADDRESS: 'Hauptstraße 1' })).toMatch(/SELLER_TAX_ID: required in production \(NODE_ENV is unset but the start carries production settings/);
    const MAIL = { SMTP_URL: 'smtp://mail.example.com:587' };
    expect(refusal({ NODE_ENV: 'production', ...MAIL, ...SELLER, SELLER_NAME: '   ' })).toMatch(/^Invalid configuration:\n {2}SELLER_NAME: required/);
    expect(refusal({ NODE_ENV: 'production', ...SELLER })).toMatch(/^Invalid configuration:\n {2}SMTP_URL: required/);
    expect(refusal({ NODE_ENV: 'production', ...MAIL, ...SELLER })).toBeNull();
    // A bare `npm start` (the demo), development and tests need none: the product name stands in.
    expect(refusal({ STARTED_BY: 'npm-start' })).toBeNull();
    expect(refusal({ NODE_ENV: 'development' })).toBeNull();
    expect(refusal({ NODE_ENV: 'test' })).toBeNull();
    const demo = loadStartConfig({ STARTED_BY: 'npm-start' });
    expect(demo.mode).toBe('demo');
    expect(demo.SELLER_NAME).toBeUndefined();
  });

  it('the server process exits before listening, saying which settings are missing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'beacon-seller-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
        env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: '', SELLER_NAME: '', SELLER_ADDRESS: '', SELLER_TAX_ID: 'DE123456789', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(out).toContain('SELLER_NAME: required in production');
      expect(out).toContain('SELLER_ADDRESS: required in production');
      expect(out).not.toContain('SELLER_TAX_ID: required');
      expect(out).not.toMatch(/is running at/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the buyer’s billing address', () => {
  it('is kept with the company, printed on the next invoice and frozen there', async () => {
    const address = { billingCountry: 'FR', billingAddress: '  12 rue de Rivoli\n\nBâtiment B, 3e étage  ', billingPostalCode: '75001', billingCity: 'Paris' };
    const { owner, tx } = await paid('address@example.com', { name: 'Rivoli SARL', ...address });
    expect(await companyRow(owner.companyId)).toMatchObject({ billing_address: '12 rue de Rivoli\nBâtiment B, 3e étage', billing_postal_code: '75001', billing_city: 'Paris' });
    const read = (await get(t.app, `/api/v1/companies/${owner.companyId}`, owner.cookie)).json().payload;
    expect(read).toMatchObject({ billingAddress: '12 rue de Rivoli\nBâtiment B, 3e étage', billingPostalCode: '75001', billingCity: 'Paris', billingCountry: 'FR' });
    expect(tx.invoice.buyer).toEqual({ name: 'Rivoli SARL', addressLines: ['12 rue de Rivoli', 'Bâtiment B, 3e étage', '75001 Paris'], country: 'FR', taxId: null, email: 'address@example.com' });
    const issued = await get(t.app, invoiceUrl(owner.companyId, tx.id), owner.cookie);
    expect(text(issued.body)).toContain('Bill to Rivoli SARL 12 rue de Rivoli Bâtiment B, 3e étage 75001 Paris France address@example.com');

    // The company moves: the issued invoice stays as it was, byte for byte.
    expect((await putCompany(owner, { name: 'Rivoli SARL', billingAddress: '1 Neue Straße', billingPostalCode: '80331', billingCity: 'München', billingCountry: 'DE' })).statusCode).toBe(200);
    expect((await get(t.app, invoiceUrl(owner.companyId, tx.id), owner.cookie)).body).toBe(issued.body);
  });

  it('refuses more than 3 lines, markup and a malformed postal code, changing nothing; empty clears a field', async () => {
    const owner = await companyOwner(t.app, 'address-refused@example.com');
    expect((await putCompany(owner, { name: 'Kept Ltd', billingAddress: '1 High Street', billingPostalCode: 'SW1A 1AA', billingCity: 'London' })).statusCode).toBe(200);
    const kept = await companyRow(owner.companyId);
    const before = await tableCounts(t.app);
    const bad = await putCompany(owner, { name: 'Changed Ltd', billingAddress: 'a\nb\nc\nd', billingPostalCode: '75001<', billingCity: '<b>Paris</b>' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().payload.errors).toEqual({ billingAddress: ['Use up to 3 lines of 100 characters.'], billingPostalCode: ['Use up to 16 letters, digits, spaces or dashes.'], billingCity: ['HTML is not allowed.'] });
    expect((await putCompany(owner, { name: 'Changed Ltd', billingAddress: 'x'.repeat(101) })).json().payload.errors).toEqual({ billingAddress: ['Use up to 3 lines of 100 characters.'] });
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await companyRow(owner.companyId)).toEqual(kept);
    // Parts left out stay; an empty one is cleared.
    expect((await putCompany(owner, { name: 'Kept Ltd', billingCity: 'Westminster' })).json().payload).toMatchObject({ billingAddress: '1 High Street', billingPostalCode: 'SW1A 1AA', billingCity: 'Westminster' });
    expect((await putCompany(owner, { name: 'Kept Ltd', billingPostalCode: '' })).json().payload).toMatchObject({ billingAddress: '1 High Street', billingPostalCode: null, billingCity: 'Westminster' });
  });
});

describe('each line: named as on the order, with its server and service period', () => {
  it('names options with their kind, and says the server and the period paid for', async () => {
    const order = { name: 'Checkout API', planConfig: { region: cat.region('europe-west1'), size: cat.size('mau_500'), features: [cat.feature('domain.default'), cat.feature('retention.12m'), cat.feature('backup.daily')] } };
    const { owner, deploymentId, tx } = await paid('lines@example.com', {}, order);
    const [sub] = await t.app.database.rows<{ start: Date; end: Date; quote: { lines: { name: string }[] } }>(`select current_period_start as start, current_period_end as "end", quote from subscriptions where deployment_id = '${deploymentId}'`);
    if (!sub) throw new Error('no subscription');
    // The order's own names (its quote, what the checkout listed) are the invoice's.
    const names = ['Starter', 'Region: Belgium, Europe', 'Hosted subdomain', 'Data retention: 12 months', 'Daily backup'];
    expect(sub.quote.lines.map((l) => l.name)).toEqual(names);
    const period = { from: new Date(sub.start).toISOString(), to: new Date(sub.end).toISOString() };
    expect(tx.invoice.lines).toEqual([
      { name: 'Starter', amount: '49.00', server: 'Checkout API', period },
      { name: 'Region: Belgium, Europe', amount: '10.00', server: 'Checkout API', period },
      { name: 'Hosted subdomain', amount: '0.00', server: 'Checkout API', period },
      { name: 'Data retention: 12 months', amount: '20.00', server: 'Checkout API', period },
      { name: 'Daily backup', amount: '0.00', server: 'Checkout API', period },
    ]);
    // A month from the payment.
    expect(day(period.from)).toBe(day(tx.billed_at));
    expect(new Date(period.to).getUTCMonth()).toBe((new Date(period.from).getUTCMonth() + 1) % 12);
    const page = text((await get(t.app, invoiceUrl(owner.companyId, tx.id), owner.cookie)).body);
    expect(page).toContain(`Description Amount (USD) Server: Checkout API · Service period: ${day(period.from)} – ${day(period.to)} Starter $49.00 Region: Belgium, Europe $10.00 Hosted subdomain $0.00 Data retention: 12 months $20.00 Daily backup $0.00 Subtotal $79.00`);

    // Renamed later: the issued invoice keeps the name the server had when it was paid.
    await t.app.database.rows(`update deployments set name = 'Renamed' where id = '${deploymentId}'`);
    expect(text((await get(t.app, invoiceUrl(owner.companyId, tx.id), owner.cookie)).body)).toContain('Server: Checkout API');
  });
});

describe('tax: one rule for the price, the charge and the invoice', () => {
  it('decides a reverse charge only for an EU business with its own country’s VAT id, bought from a seller registered in another member state', () => {
    const table: [string, Parameters<typeof taxTreatment>[0], ReturnType<typeof taxTreatment>][] = [
      ['FR business, DE seller', { country: 'FR', taxId: 'FR 40 303 265 045', sellerTaxId: 'DE123456789' }, { kind: 'reverseCharge', rate: 0 }],
      ['FR business, seller with an Austrian VAT id', { country: 'FR', taxId: 'FR40303265045', sellerTaxId: 'ATU12345678' }, { kind: 'reverseCharge', rate: 0 }],
      ['FR business, seller without an EU VAT id (a demo)', { country: 'FR', taxId: 'FR40303265045', sellerTaxId: '' }, { kind: 'standard', rate: 20 }],
      ['FR business, seller with a US tax id', { country: 'FR', taxId: 'FR40303265045', sellerTaxId: '12-3456789' }, { kind: 'standard', rate: 20 }],
      ['Greek business (EL prefix)', { country: 'GR', taxId: 'EL123456789', sellerTaxId: 'DE123456789' }, { kind: 'reverseCharge', rate: 0 }],
      ['DE business, DE seller: domestic', { country: 'DE', taxId: 'DE811907980', sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 19 }],
      ['FR consumer (no VAT id)', { country: 'FR', taxId: null, sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 20 }],
      ['FR, malformed VAT id', { country: 'FR', taxId: 'FR123', sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 20 }],
      ['FR billing, another country’s VAT id', { country: 'FR', taxId: 'DE811907980', sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 20 }],
      ['outside the EU (GB) with a tax id', { country: 'GB', taxId: 'GB123456789', sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 20 }],
      ['no country', { country: null, taxId: 'FR40303265045', sellerTaxId: 'DE123456789' }, { kind: 'standard', rate: 0 }],
    ];
    for (const [name, parties, expected] of table) expect([name, taxTreatment(parties)]).toEqual([name, expected]);
  });

  it('prices, charges and invoices a French business with a VAT id, bought from a German seller, as a reverse charge', async () => {
    const owner = await companyOwner(t.app, 'reverse@example.com');
    expect((await putCompany(owner, { name: 'Lumière SAS', billingCountry: 'FR', taxId: 'FR 40 303 265 045' })).statusCode).toBe(200);
    const body = orderBody(cat, owner);
    const priced = (await t.app.inject({ method: 'POST', url: '/api/v1/deployments/pricing', payload: { plan: body.plan, planConfig: body.planConfig, payment: { term: { cycle: 'month' } }, company: owner.companyId }, headers: { cookie: owner.cookie } })).json().payload;
    expect(priced).toMatchObject({ subtotal: '49.00', tax: '0.00', total: { amount: '49.00' } });
    const id = (await postOrder(t.app, owner.cookie, body)).json().payload._id as string;
    expect((await pay(t.app, owner.cookie, id)).statusCode).toBe(200);
    const [tx] = await t.app.database.rows<{ id: string; tax: string; total: string; invoice: InvoiceDocument }>(`select id, tax::text, total::text, invoice from transactions where deployment_id = '${id}'`);
    expect(tx).toMatchObject({ tax: '0.00', total: '49.00', invoice: { reverseCharge: true, taxRate: 0, buyer: { country: 'FR', taxId: 'FR 40 303 265 045' }, seller: { taxId: 'DE123456789' } } });
    const page = text((await get(t.app, invoiceUrl(owner.companyId, tx?.id ?? ''), owner.cookie)).body);
    expect(page).toContain('Subtotal $49.00 Reverse charge $0.00 Total $49.00');
    expect(page).toContain(LEGAL);
    expect(page).toContain('Tax ID: FR 40 303 265 045');
    expect(page).not.toMatch(/Tax \(\d/);
  });

  it('charges and shows VAT at the country’s rate otherwise: a French business without a VAT id, and a German one (the seller’s own country)', async () => {
    const french = await paid('vat-fr@example.com', { billingCountry: 'FR' });
    expect(french.tx).toMatchObject({ subtotal: '49.00', tax: '9.80', total: '58.80', invoice: { reverseCharge: false, taxRate: 20 } });
    const frPage = text((await get(t.app, invoiceUrl(french.owner.companyId, french.tx.id), french.owner.cookie)).body);
    expect(frPage).toContain('Subtotal $49.00 Tax (20%) $9.80 Total $58.80');
    expect(frPage).not.toContain('Reverse charge');

    const german = await paid('vat-de@example.com', { billingCountry: 'DE', taxId: 'DE811907980' });
    expect(german.tx).toMatchObject({ tax: '9.31', total: '58.31', invoice: { reverseCharge: false, taxRate: 19 } });
    expect(text((await get(t.app, invoiceUrl(german.owner.companyId, german.tx.id), german.owner.cookie)).body)).toContain('Tax (19%) $9.31 Total $58.31');
  });
});

describe('the receipt: a document, not the API’s answer', () => {
  it('is a printable page with the payment’s date, the card’s brand and last 4 digits, the amount paid and the invoice it pays', async () => {
    const { owner, tx } = await paid('receipt@example.com', { name: 'Receipt GmbH', billingCountry: 'DE' });
    const res = await get(t.app, receiptUrl(owner.companyId, tx.id), owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const page = text(res.body);
    const date = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(tx.billed_at));
    expect(page).toContain(`Receipt Payment received for invoice ${tx.invoice_number} Download PDF $58.31 paid Paid on ${date} Payment method Visa ending in 4242 For invoice ${tx.invoice_number}`);
    expect(page).toContain('Paid to Beacon Analytics GmbH Hauptstraße 1 10115 Berlin Tax ID: DE123456789 Received from Receipt GmbH receipt@example.com');
    expect(res.body).not.toMatch(/4242 ?4242|"total"|\{"/);
  });

  it('refuses a stranger (403) and another company’s transaction (404), changing nothing', async () => {
    const { owner, tx } = await paid('receipt-owner@example.com', { name: 'Private Receipts' });
    const stranger = await companyOwner(t.app, 'receipt-stranger@example.com');
    const before = await tableCounts(t.app);
    const forbidden = await get(t.app, receiptUrl(owner.companyId, tx.id), stranger.cookie);
    expect(forbidden.statusCode).toBe(403);
    const crossed = await get(t.app, receiptUrl(stranger.companyId, tx.id), stranger.cookie);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().code).toBe('TRANSACTION_NOT_FOUND');
    for (const r of [forbidden, crossed]) expect(r.body).not.toMatch(/Private Receipts|58\.31|49\.00|4242/);
    expect(await tableCounts(t.app)).toEqual(before);
  });
});

describe('"Download PDF"', () => {
  it('is a button run by one same-origin script file, the only script the pages allow', async () => {
    const { owner, tx } = await paid('print@example.com', {});
    const res = await get(t.app, invoiceUrl(owner.companyId, tx.id), owner.cookie);
    expect(res.body).toContain('<button type="button" data-print>Download PDF</button>');
    expect(res.body.match(/<script[^>]*>/g)).toEqual(['<script src="/api/v1/documents/print.js" defer>']);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp.match(/script-src [^;]*/)?.[0]).toBe("script-src 'self'");
    // Print CSS: A4 paper, the button and the hint left off the paper.
    expect(res.body).toContain('@page{size:A4');
    expect(res.body).toMatch(/@media print\{[^}]*\}[^@]*\.print,\.actions\{display:none\}/);
    const script = await t.app.inject({ method: 'GET', url: '/api/v1/documents/print.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('window.print()');
  });
});
