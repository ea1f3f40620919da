import { ApiError } from '../../dataProvider/httpClient';

/** Drops the 'Error:' prefix the API may put before each field message (SPEC §8). */
export const stripErrorPrefix = (text: string) => text.replace(/(^|,\s*)Error:\s*/gi, '$1');

/**
 * SPEC §8 for sign-up: field errors read with any 'Error:' prefix removed; a coded API answer
 * (email taken, rate limit…) as the API words it; anything else is 'Something went wrong'.
 */
export function signUpFailure(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (error.fieldErrors) return stripErrorPrefix(error.message);
    if (error.code && error.message) return error.message;
  }
  return t('errors.somethingWentWrong');
}
