// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { renderUi } from '../testUtils';
import { FormTextField } from './FormTextField';

afterEach(cleanup);

function Harness({ autoFocus }: { autoFocus?: boolean }) {
  const { control, setError } = useForm<{ first: string; second: string }>({ defaultValues: { first: '', second: '' } });
  return (
    <>
      <FormTextField control={control} name="first" label="First" />
      <FormTextField control={control} name="second" label="Second" autoFocus={autoFocus} />
      <button type="button" onClick={() => setError('first', { message: 'Required.' }, { shouldFocus: true })}>
        Refuse first
      </button>
    </>
  );
}

describe('FormTextField', () => {
  it('autoFocus puts the cursor in the field once it is shown, and only that field', async () => {
    await act(async () => void renderUi(<Harness autoFocus />));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Second')));
  });

  it('without autoFocus takes no focus', async () => {
    await act(async () => void renderUi(<Harness />));
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(document.activeElement).toBe(document.body);
  });

  it('still hands its input to the form, which focuses a refused field', async () => {
    await act(async () => void renderUi(<Harness autoFocus />));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Second')));
    fireEvent.click(screen.getByRole('button', { name: 'Refuse first' }));
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
  });
});
