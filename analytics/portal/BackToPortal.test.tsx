// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clientConfig } from '../../src/clientConfig';
import { BackToPortal } from './BackToPortal';
import { renderInDashboard } from './renderInDashboard';

afterEach(() => cleanup());

describe('the way back to the portal', () => {
  it("links a server's dashboard to that server's page in the portal", async () => {
    await renderInDashboard(<BackToPortal basePath="/analytics/d1" />);
    const link = screen.getByRole('link', { name: `Back to ${clientConfig.productName}` });
    expect(link.getAttribute('href')).toBe('/#/deployments/d1');
  });

  it('shows none in the dashboard preview, which already sits in a portal page', async () => {
    await renderInDashboard(<BackToPortal basePath="/tools/dashboard-preview" />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
