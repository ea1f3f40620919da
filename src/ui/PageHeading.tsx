import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../useDocumentTitle';

/** The h1 of a main-layout page; also sets the document title. */
export function PageHeading({ titleKey, title }: { titleKey?: string; title?: string }) {
  const { t } = useTranslation();
  useDocumentTitle(titleKey ?? '', title);
  return (
    <Typography variant="h1" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
      {title ?? (titleKey ? t(titleKey) : '')}
    </Typography>
  );
}
