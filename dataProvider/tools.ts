import type { AppProfileReviewAnswer, AppProfileReviewInput } from '../src/domain/tools/schemas';
import { apiFetch } from './httpClient';

/** Typed calls of the public tools pages (SPEC §2 /tools/...). */
export const toolsApi = {
  /** 201 with the stored request; 400 VALIDATION_FAILED with field errors; 429 RATE_LIMITED. */
  requestAppProfileReview: async (body: AppProfileReviewInput) =>
    (await apiFetch<AppProfileReviewAnswer>('/tools/app-profile-reviews', { method: 'POST', body: JSON.stringify(body) })).payload,
};
