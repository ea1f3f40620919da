import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../domain/apiError';

/**
 * Form messages are i18n keys from the shared schemas, or English text from the server's field
 * errors; only keys go through t(), since free text may contain i18next's separators.
 */
export function useTranslateMessage() {
  const { t, i18n } = useTranslation();
  return useCallback((message: string | undefined) => (!message ? '' : i18n.exists(message) ? t(message) : message), [t, i18n]);
}

/** Puts the server's field errors (ApiError.fieldErrors) on the form's fields; true when any matched. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
  clean: (message: string) => string = (m) => m,
): boolean {
  if (!(error instanceof ApiError) || !error.fieldErrors) return false;
  let applied = false;
  for (const field of fields) {
    const raw = error.fieldErrors[field]?.[0];
    const message = raw && clean(raw);
    if (message) {
      setError(field, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

/** The text to show for a failed call: the API's SPEC §8 message, else the generic one. */
export function failureMessage(error: unknown, t: (key: string) => string): string {
  return error instanceof ApiError && error.message ? error.message : t('errors.somethingWentWrong');
}
