// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/domain/apiError';
import { en, fieldError, renderPage } from '../../../src/testing/renderPage';
import '../../i18n/register';
import { AppForm } from './AppForm';

afterEach(cleanup);

const slow = { timeout: 10_000 };
const open = (onSubmit: () => Promise<void>) => renderPage(<AppForm submitLabel="Save app" onSubmit={onSubmit} />, '/');
const submit = () => fireEvent.submit(screen.getByRole('form', { name: 'Save app' }));

describe('the application form', () => {
  it("puts the server's field errors on their fields, without an alert", async () => {
    const onSubmit = vi.fn(() => Promise.reject(new ApiError('Name taken.', 400, 'VALIDATION_FAILED', { name: ['An app with this name exists.'] }, null)));
    open(onSubmit);
    fireEvent.change(screen.getByLabelText(en('analytics.apps.name')), { target: { value: 'Shop' } });
    submit();
    await waitFor(() => expect(fieldError(en('analytics.apps.name'))).toBe('An app with this name exists.'), slow);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a failure no field takes as the form alert', async () => {
    open(() => Promise.reject(new ApiError('The server is busy.', 503, undefined, null, null)));
    fireEvent.change(screen.getByLabelText(en('analytics.apps.name')), { target: { value: 'Shop' } });
    submit();
    expect((await screen.findByRole('alert', {}, slow)).textContent).toBe('The server is busy.');
  });
});
