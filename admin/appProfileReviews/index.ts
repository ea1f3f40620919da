import RateReviewIcon from '@mui/icons-material/RateReview';
import { lazyView } from '../../src/lazyView';

const AppProfileReviewList = lazyView(() => import('./AppProfileReviewList'), 'AppProfileReviewList');

/** The admin app review requests resource (`/admin/appProfileReviews`, data from `/api/v1/admin/appProfileReviews`); read-only. */
export default {
  list: AppProfileReviewList,
  icon: RateReviewIcon,
  recordRepresentation: (record: { appName?: string }) => record.appName ?? '',
};
