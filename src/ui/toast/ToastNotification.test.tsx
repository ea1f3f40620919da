// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminContext, useNotify } from 'react-admin';
import { useEffect } from 'react';
import { ToastNotification } from './ToastNotification';
import { clearToasts, getToasts } from './toastStore';

function Notify({ message, type }: { message: string; type: 'error' | 'success' }) {
  const notify = useNotify();
  useEffect(() => notify(message, { type }), [notify, message, type]);
  return null;
}

afterEach(() => act(() => clearToasts()));

describe('react-admin notifications go to the app-wide toast queue', () => {
  it('shows a data-provider error as a destructive toast', async () => {
    render(
      <AdminContext>
        <Notify message="Plan is sold out" type="error" />
        <ToastNotification />
      </AdminContext>,
    );
    expect(await screen.findByText('Plan is sold out')).toBeTruthy();
    expect(getToasts()).toEqual([expect.objectContaining({ text: 'Plan is sold out', variant: 'destructive' })]);
  });
});
