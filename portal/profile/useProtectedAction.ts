import { useRef, useState } from 'react';
import { ApiError } from '../../dataProvider/httpClient';
import { session } from '../../src/session';
import { useFormSubmit } from '../../src/ui/form/useFormSubmit';

/**
 * An account change the server may refuse until the user proves who they are again
 * (REAUTH_REQUIRED: two-factor setup, adding or removing a passkey). `run(action, retry)` clears
 * the last notice and failure and runs the action; on REAUTH_REQUIRED it calls `onReauth(retry)`
 * (the screen asks for the password, then retries); a lost session is the session's; anything
 * else becomes `failure`.
 */
export function useProtectedAction(onReauth: (retry: () => void) => void) {
  const [notice, setNotice] = useState<string | null>(null);
  const retry = useRef<() => void>(() => undefined);
  const submit = useFormSubmit({
    intercept: (error) => {
      if (session.handleError(error)) return true;
      if (!(error instanceof ApiError && error.code === 'REAUTH_REQUIRED')) return false;
      onReauth(retry.current);
      return true;
    },
  });
  const run = (action: () => Promise<unknown>, again: () => void) => {
    setNotice(null);
    retry.current = again;
    return submit.run(action);
  };
  const clear = () => {
    setNotice(null);
    submit.setFailure(null);
  };
  return { run, clear, busy: submit.submitting, notice, setNotice, failure: submit.failure };
}
