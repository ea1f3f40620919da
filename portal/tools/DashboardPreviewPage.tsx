import './i18n';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** /tools/dashboard-preview (SPEC §2 tools pages): placeholder until the analytics area lands. */
export default function DashboardPreviewPage() {
  const { t } = useTranslation();
  return <Typography sx={{ p: 4 }}>{t('tools.preview.loading')}</Typography>;
}
