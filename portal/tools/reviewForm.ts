import { zodResolver } from '@hookform/resolvers/zod';
import { appProfileReviewSchema } from '../../src/domain/tools/schemas';

// Loaded by the review page after it starts, so zod stays out of its first-load JS.
export const reviewResolver = zodResolver(appProfileReviewSchema);
