// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../src/i18n';
import { GoogleSignInButton } from './GoogleSignInButton';
import { GSI_SCRIPT_URL } from './googleIdentity';

afterEach(() => {
  cleanup();
  delete window.google;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

const show = (props: Partial<Parameters<typeof GoogleSignInButton>[0]> & { onCredential: (t: string) => void }) =>
  render(
    <I18nextProvider i18n={i18n}>
      <GoogleSignInButton mode="signIn" clientId="client-1" {...props} />
    </I18nextProvider>,
  );

describe('GoogleSignInButton', () => {
  it('renders nothing and loads no script without a client id', () => {
    show({ clientId: null, onCredential: vi.fn() });
    expect(screen.queryByTestId('google-button')).toBeNull();
    expect(document.querySelector(`script[src="${GSI_SCRIPT_URL}"]`)).toBeNull();
  });

  it("initializes Google's library with the client id and hands the chosen account's token over", async () => {
    let callback: ((r: { credential?: string }) => void) | undefined;
    const initialize = vi.fn((options: { client_id: string; callback: (r: { credential?: string }) => void }) => {
      callback = options.callback;
    });
    const renderButton = vi.fn();
    window.google = { accounts: { id: { initialize, renderButton } } };
    const onCredential = vi.fn();
    show({ mode: 'signUp', onCredential });
    await waitFor(() => expect(renderButton).toHaveBeenCalled());
    expect(initialize).toHaveBeenCalledWith(expect.objectContaining({ client_id: 'client-1', context: 'signup' }));
    expect(renderButton.mock.calls[0]?.[1]).toMatchObject({ text: 'signup_with' });
    act(() => callback?.({ credential: 'id-token-1' }));
    expect(onCredential).toHaveBeenCalledWith('id-token-1');
  });

  it('hides itself when the script cannot load (blocked or offline)', async () => {
    show({ onCredential: vi.fn() });
    const script = document.querySelector<HTMLScriptElement>(`script[src="${GSI_SCRIPT_URL}"]`);
    expect(script).not.toBeNull();
    expect(screen.getByTestId('google-button')).toBeTruthy();
    act(() => script?.onerror?.(new Event('error')));
    await waitFor(() => expect(screen.queryByTestId('google-button')).toBeNull());
  });
});
