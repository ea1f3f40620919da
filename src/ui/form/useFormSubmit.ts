import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { showToast } from '../toast/toastStore';
import { applyServerErrors, failureMessage } from './messages';

export interface FormSubmitOptions<T extends FieldValues> {
  /** The form's fields the server may name in its field errors; those it names go on the fields. */
  fields?: readonly FieldPath<T>[];
  setError?: UseFormSetError<T>;
  /** Tidies a server field message before it is shown (the sign-up forms strip a prefix). */
  clean?: (message: string) => string;
  /** Where a failure no field took is shown: `failure` (an alert the form renders) or a toast. */
  report?: 'alert' | 'toast';
  /** Shows the failure even when a field took it (a wrong code must be obvious above the field too). */
  alwaysReport?: boolean;
  /** Claims an error before anything is shown, e.g. `session.handleError` for a lost session. */
  intercept?: (error: unknown) => boolean;
  /** Words the failure when the form has its own rule (sign-up, SPEC §8); the API's message otherwise. */
  message?: (error: unknown, t: (key: string) => string) => string;
}

export interface FormSubmit {
  /** Runs a call (and what follows its success); true when it did not throw. */
  run: (call: () => Promise<unknown>) => Promise<boolean>;
  /** The failure to show in the form's alert (with `report: 'alert'`), else null. */
  failure: string | null;
  setFailure: (failure: string | null) => void;
  submitting: boolean;
}

/**
 * The one way a form submits: it clears the last failure, runs the call, and on an error lets
 * `intercept` claim it, puts the server's field errors on the fields, and shows the rest as the
 * form's alert or a toast (the API's message, else the generic one).
 */
export function useFormSubmit<T extends FieldValues = FieldValues>(options: FormSubmitOptions<T> = {}): FormSubmit {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The latest options, so `run` stays one function for the form's life (screens build columns with it).
  const latest = useRef({ options, t });
  useLayoutEffect(() => {
    latest.current = { options, t };
  });

  const run = useCallback(async (call: () => Promise<unknown>) => {
    setFailure(null);
    setSubmitting(true);
    try {
      await call();
      return true;
    } catch (error) {
      const { options: current, t: translate } = latest.current;
      const { fields = [], setError, clean, report = 'alert', alwaysReport = false, intercept, message = failureMessage } = current;
      if (intercept?.(error)) return false;
      if (setError && applyServerErrors(error, fields, setError, clean) && !alwaysReport) return false;
      const text = message(error, translate);
      if (report === 'toast') showToast({ text, variant: 'destructive' });
      else setFailure(text);
      return false;
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { run, failure, setFailure, submitting };
}
