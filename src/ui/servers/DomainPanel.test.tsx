// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../serversI18n';
import type { DeploymentDomain, DeploymentPopulated } from '../../domain/deployments/schemas';
import { dateTime } from './status';
import { en, renderUi } from '../testUtils';
import { DomainPanel, type DomainCalls } from './DomainPanel';
import type { ActionAnswer } from './useServerAction';

const RECORDS: DeploymentDomain['verification'] = [
  { type: 'TXT', host: '_beacon-verify.shop.test', value: 'beacon-verify=0123' },
  { type: 'CNAME', host: 'shop.test', value: 'shop-d1.servers.example' },
];
const FINDINGS = 'CNAME shop.test → elsewhere.example; expected shop-d1.servers.example.';

function server(domain: Partial<DeploymentDomain>): Pick<DeploymentPopulated, '_id' | 'status' | 'terminationScheduledAt' | 'domain' | 'features'> {
  return {
    _id: 'd-1',
    status: 'running',
    terminationScheduledAt: null,
    domain: { name: 'shop.test', custom: true, ssl: 'pending', verified: false, verifiedAt: null, verification: RECORDS, check: null, ...domain },
    features: [{ _id: 'f-c', code: 'domain.custom', name: 'Custom domain', type: 'domain' }],
  };
}

function renderPanel(deployment: ReturnType<typeof server>) {
  const calls: DomainCalls<ActionAnswer> = { updateDomain: vi.fn(async () => ({ task: null })), verifyDomain: vi.fn(async () => ({ task: null })) };
  renderUi(<DomainPanel deployment={deployment} canEdit calls={calls} onAnswer={() => undefined} certificate={undefined} />);
  return calls;
}

afterEach(cleanup);

describe('the domain panel', () => {
  it('says which two records to add, what each is for, and the apex alternative', () => {
    renderPanel(server({}));
    const lines = screen.getAllByTestId('dns-record-line');
    expect(lines.map((l) => l.dataset.type)).toEqual(['TXT', 'CNAME']);
    expect(lines[0]?.textContent).toContain(en('deployment.domain.recordPurpose.TXT'));
    expect(lines[0]?.textContent).toContain('_beacon-verify.shop.test');
    expect(lines[0]?.textContent).toContain('beacon-verify=0123');
    expect(lines[1]?.textContent).toContain(en('deployment.domain.recordPurpose.CNAME'));
    expect(lines[1]?.textContent).toContain('shop-d1.servers.example');
    expect(screen.getByTestId('dns-record').textContent).toContain(en('deployment.domain.apexNote', { target: 'shop-d1.servers.example' }));
    expect(screen.queryByTestId('dns-check')).toBeNull();
  });

  it('shows what the last verification found', () => {
    renderPanel(server({ check: { state: 'failed', at: '2026-03-01T10:00:00.000Z', findings: FINDINGS, stopsAt: null } }));
    expect(screen.getByTestId('dns-check').dataset.state).toBe('failed');
    expect(screen.getByTestId('dns-findings').textContent).toBe(FINDINGS);
  });

  it('keeps the records on show for a verified domain whose records went, with the day it stops being served', () => {
    const stopsAt = '2026-03-04T04:30:00.000Z';
    renderPanel(server({ verified: true, verifiedAt: '2026-02-01T10:00:00.000Z', ssl: 'active', check: { state: 'missing', at: '2026-03-01T04:30:00.000Z', findings: FINDINGS, stopsAt } }));
    expect(screen.getByTestId('dns-check').textContent).toContain(dateTime.format(new Date(stopsAt)));
    expect(screen.getAllByTestId('dns-record-line')).toHaveLength(2);
    expect(screen.getByTestId('dns-record').textContent).toContain(en('deployment.domain.recordIntroRestore'));
    // Verified: nothing to verify.
    expect(screen.queryByRole('button', { name: en('deployment.domain.verify') })).toBeNull();
  });

  it('says a domain whose records stayed missing is no longer served, and offers its verification again', () => {
    renderPanel(server({ check: { state: 'stopped', at: '2026-03-04T04:30:00.000Z', findings: FINDINGS, stopsAt: null } }));
    expect(screen.getByTestId('dns-check').textContent).toContain(en('deployment.domain.check.stopped', { date: dateTime.format(new Date('2026-03-04T04:30:00.000Z')) }));
    expect(screen.getByTestId('dns-record').textContent).toContain(en('deployment.domain.recordIntro'));
    expect(screen.getByRole('button', { name: en('deployment.domain.verify') })).toBeTruthy();
  });

  it('hides the records of a verified domain whose records are in place', () => {
    renderPanel(server({ verified: true, verifiedAt: '2026-02-01T10:00:00.000Z', ssl: 'active' }));
    expect(screen.queryByTestId('dns-record')).toBeNull();
  });

  it.each([
    ['192.0.2.1', en('errors.DOMAIN_IS_IP', { domain: '192.0.2.1' })],
    ['Bücher.de', en('errors.DOMAIN_NOT_IDNA', { domain: 'bücher.de', ascii: 'xn--bcher-kva.de' })],
    ['not a domain', en('errors.DOMAIN_INVALID')],
  ])('refuses %s with the API’s own message, sending nothing', async (typed, message) => {
    const calls = renderPanel(server({ custom: false, name: 'shop-d1.servers.example', verification: [] }));
    const field = screen.getByLabelText(en('deployment.domain.field'));
    fireEvent.change(field, { target: { value: typed } });
    await act(async () => void fireEvent.submit(field.closest('form') as HTMLFormElement));
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);
    expect(calls.updateDomain).not.toHaveBeenCalled();
  });
});
