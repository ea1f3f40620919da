// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../domain/apiError';
import { FormDialog } from '../dialog/FormDialog';
import { en, renderUi } from '../testUtils';
import { clearToasts, getToasts } from '../toast/toastStore';
import { useFormSubmit, type FormSubmitOptions } from './useFormSubmit';

afterEach(() => {
  cleanup();
  act(() => clearToasts());
});

interface Values {
  name: string;
}

/** A one-field form in a FormDialog whose submit runs `call` through useFormSubmit. */
function Harness({ call, options = {}, onCancel = () => undefined }: { call: () => Promise<unknown>; options?: FormSubmitOptions<Values>; onCancel?: () => void }) {
  const { register, setError, formState } = useForm<Values>({ defaultValues: { name: '' } });
  const { run, failure, submitting } = useFormSubmit<Values>({ fields: ['name'], setError, ...options });
  return (
    <FormDialog title="Rename" submitLabel="Save" cancelLabel="Cancel" onCancel={onCancel} onSubmit={() => void run(call)} submitting={submitting} failure={failure}>
      <input aria-label="name" {...register('name')} />
      {formState.errors.name && <p>field: {formState.errors.name.message}</p>}
    </FormDialog>
  );
}

const fieldError = new ApiError('Invalid input.', 400, 'VALIDATION_FAILED', { name: ['Name is taken.'] }, null);
const conflict = new ApiError('That name changed meanwhile.', 409, undefined, null, null);

// The first render loads MUI, which takes seconds on a busy machine.
describe('useFormSubmit and FormDialog', { timeout: 20_000 }, () => {
  it('runs the call on submit and shows nothing when it succeeds', async () => {
    const call = vi.fn().mockResolvedValue(undefined);
    renderUi(<Harness call={call} />);
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('puts the server field errors on the fields, without an alert', async () => {
    renderUi(<Harness call={() => Promise.reject(fieldError)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('field: Name is taken.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the API's message as the form's alert, the generic one for anything else", async () => {
    const { unmount } = renderUi(<Harness call={() => Promise.reject(conflict)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That name changed meanwhile.');
    unmount();
    renderUi(<Harness call={() => Promise.reject(new TypeError('offline'))} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(en('errors.somethingWentWrong'));
  });

  it('toasts the failure when asked, and lets an interceptor claim an error first', async () => {
    const { unmount } = renderUi(<Harness call={() => Promise.reject(conflict)} options={{ report: 'toast' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(getToasts().map((t) => [t.text, t.variant])).toEqual([['That name changed meanwhile.', 'destructive']]));
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();
    act(() => clearToasts());
    const intercept = vi.fn().mockReturnValue(true);
    renderUi(<Harness call={() => Promise.reject(fieldError)} options={{ intercept, report: 'toast' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(intercept).toHaveBeenCalledWith(fieldError));
    expect(screen.queryByText('field: Name is taken.')).toBeNull();
    expect(getToasts()).toEqual([]);
  });

  it('words the failure by the form\'s own rule when given one, and with alwaysReport shows it above a field that took it too', async () => {
    const message = vi.fn((error: unknown) => (error === fieldError ? 'Check the name.' : 'other'));
    renderUi(<Harness call={() => Promise.reject(fieldError)} options={{ message, alwaysReport: true }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Check the name.');
    expect(screen.getByText('field: Name is taken.')).toBeTruthy();
  });

  it('closes through onCancel from the cancel button', () => {
    const onCancel = vi.fn();
    renderUi(<Harness call={() => Promise.resolve()} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
