import VisibilityIcon from '@mui/icons-material/Visibility';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AdminCompanyDetail, ViewAsAnswer } from '../../src/domain/admin/schemas';
import { session } from '../../src/session';
import { useRecordAction } from '../useRecordAction';

/**
 * Opens the product read-only as the company's admin sees it (support); the session says so
 * everywhere. Where the server would refuse (no admin, or the admin is you) the button is
 * disabled and says why, as the company's page tells it.
 */
export function ViewAsButton({ company }: { company: AdminCompanyDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const start = useRecordAction<ViewAsAnswer>('companies', (view) => {
    void session.refresh('manual').then(() => navigate(view.projectId ? `/c/${view.companyId}/p/${view.projectId}/dashboard` : '/dashboard'));
  });
  const { email, refused } = company.viewAs;
  const noteId = `view-as-note-${company._id}`;
  return (
    <Box sx={{ mb: 3 }}>
      <Button variant="outlined" startIcon={<VisibilityIcon />} disabled={start.isPending || refused !== null} aria-describedby={noteId} onClick={() => start.mutate({ id: company._id, action: 'view-as' })}>
        {t('viewAs.button')}
      </Button>
      <Typography id={noteId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {refused ? t(`viewAs.refused.${refused}`) : t('viewAs.explain', { email })}
      </Typography>
    </Box>
  );
}
