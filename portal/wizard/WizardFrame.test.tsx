// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../src/ui/testUtils';
import { PROGRESS_STEPS } from './steps';
import { WizardFrame, type WizardFrameProps } from './WizardFrame';

const frame = (props: Partial<WizardFrameProps>) =>
  renderUi(
    <MemoryRouter>
      <WizardFrame editing={false} footer={null} {...props}>
        <p>step</p>
      </WizardFrame>
    </MemoryRouter>,
  );

afterEach(cleanup);

describe('wizard chrome (SPEC §2)', () => {
  it('titles create and update, with a close button only where closing is allowed', () => {
    const onClose = vi.fn();
    frame({ onClose });
    expect(screen.getByRole('heading', { name: 'Create Beacon Server' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
    cleanup();
    frame({ editing: true });
    expect(screen.getByRole('heading', { name: 'Update Beacon Server' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('shows where you are: every step named, the current one marked, and "Step n of m" for a phone', () => {
    frame({ progress: { steps: PROGRESS_STEPS, current: 'chooseRegion' } });
    const nav = screen.getByRole('navigation', { name: 'Steps' });
    const items = within(nav).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(['1Plan', '2Region', '3Core features', '4Add-ons', '5Extras', '6Payment']);
    expect(items[1]?.getAttribute('aria-current')).toBe('step');
    expect(items.filter((i) => i.getAttribute('aria-current')).length).toBe(1);
    expect(within(nav).getByText('Step 2 of 6: Region')).toBeTruthy();
    cleanup();
    frame({});
    expect(screen.queryByRole('navigation', { name: 'Steps' })).toBeNull();
  });

  // The Next button's label by width ('Continue' on a phone) is CSS, which jsdom does not apply:
  // wizard.spec checks it in the browser.
  it('footer: total per month or year, Free at 0, Back and Next', () => {
    const onNext = vi.fn();
    frame({ footer: { totalCents: 4900, cycle: 'month', onNext, onBack: vi.fn() } });
    expect(screen.getByTestId('wizard-total').textContent).toBe('$49/month');
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(onNext).toHaveBeenCalled();
    cleanup();
    frame({ footer: { totalCents: 58800, cycle: 'year' } });
    expect(screen.getByTestId('wizard-total').textContent).toBe('$588/year');
    cleanup();
    frame({ footer: { totalCents: 0, cycle: 'month', nextDisabled: true, onNext } });
    expect(screen.getByTestId('wizard-total').textContent).toBe('Free');
    expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows no footer when there is none, the payment back link, the price notice and the sign-in link', () => {
    const back = vi.fn();
    frame({ backToConfiguration: back, priceFailed: true, showSignIn: true });
    expect(screen.queryByTestId('wizard-footer')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to server configuration' }));
    expect(back).toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('The price could not be calculated. Please try again.');
    expect(screen.getByRole('link', { name: 'Already have an account?' }).getAttribute('href')).toBe('/account/signin');
  });
});
