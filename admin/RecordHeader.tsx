import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../src/ui/PageHeading';
import { AdminNav } from './AdminNav';

/** The top of a record's page: the admin tabs, a way back to the list, the record's name. */
export function RecordHeader({ name, title }: { name: string; title: string }) {
  const { t } = useTranslation();
  return (
    <>
      <AdminNav />
      <Button component={RouterLink} to={`/admin/${name}`} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        {t('admin.back')}
      </Button>
      <PageHeading title={title} />
    </>
  );
}
