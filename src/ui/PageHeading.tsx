import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../useDocumentTitle';

/** The h1 of a main-layout page; also sets the document title. */
export function PageHeading({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  useDocumentTitle(titleKey);
  return (
    <Typography variant="h1" sx={{ mb: 3 }}>
      {t(titleKey)}
    </Typography>
  );
}
