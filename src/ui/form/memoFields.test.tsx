// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type * as ReactHookForm from 'react-hook-form';
import { useForm, type FieldValues, type UseControllerProps } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '../testUtils';
import { CheckboxField } from './CheckboxField';
import { FormTextField } from './FormTextField';
import { PasswordField } from './PasswordField';

afterEach(cleanup);

interface Values {
  email: string;
  password: string;
  agree: boolean;
}

/** How many times each field rendered: every field reads its state through `useController` once per render. */
const renders = new Map<string, number>();
vi.mock('react-hook-form', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactHookForm>();
  return {
    ...actual,
    useController: <T extends FieldValues>(props: UseControllerProps<T>) => {
      renders.set(props.name, (renders.get(props.name) ?? 0) + 1);
      return actual.useController(props);
    },
  };
});

function SignUpLikeForm() {
  const { control, setError, formState } = useForm<Values>({ defaultValues: { email: '', password: '', agree: false } });
  return (
    <form>
      <p>{formState.isReady ? 'ready' : 'starting'}</p>
      <FormTextField control={control} name="email" label="Email" />
      <PasswordField control={control} name="password" label="Password" />
      <CheckboxField control={control} name="agree" label="I agree" />
      <button type="button" onClick={() => setError('email', { message: 'Enter a valid email address.' })}>
        Refuse email
      </button>
    </form>
  );
}

describe('form fields in a page that re-renders', () => {
  it('stay out of the re-render react-hook-form makes in the form’s first commit', async () => {
    renders.clear();
    await act(async () => void renderUi(<SignUpLikeForm />));
    // The page itself did render again (the form became ready) ...
    expect(screen.getByText('ready')).toBeTruthy();
    // ... and no field with unchanged props rendered with it.
    expect(Object.fromEntries(renders)).toEqual({ email: 1, password: 1, agree: 1 });
  });

  it('still show what is typed, checked and refused', async () => {
    await act(async () => void renderUi(<SignUpLikeForm />));
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    expect(email.value).toBe('ada@example.com');
    const agree = screen.getByRole('checkbox', { name: 'I agree' }) as HTMLInputElement;
    fireEvent.click(agree);
    expect(agree.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Refuse email' }));
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByTestId('field-error-icon')).toHaveLength(1);
  });
});
