// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../../src/ui/testUtils';
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
