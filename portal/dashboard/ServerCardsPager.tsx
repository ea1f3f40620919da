import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../src/ui/numbers';
import { lastPage, showingRange } from '../../src/ui/table/tableQuery';

/** Previous/next under the dashboard's server cards, with where the page sits in the total. */
export function ServerCardsPager({ page, perPage, total, disabled, onPage }: { page: number; perPage: number; total: number; disabled: boolean; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const range = showingRange(page, perPage, total);
  const last = lastPage(total, perPage);
  return (
    <Box component="nav" aria-label={t('widgets.table.pagination')} sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mt: 2 }}>
      <Typography variant="body2" color="text.secondary" aria-live="polite" data-testid="server-cards-range">
        {t('widgets.table.showing', { start: formatCount(range.start), end: formatCount(range.end), total: formatCount(range.total) })}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button size="small" variant="outlined" startIcon={<NavigateBeforeIcon />} disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
          {t('widgets.table.previousPage')}
        </Button>
        <Button size="small" variant="outlined" endIcon={<NavigateNextIcon />} disabled={disabled || page >= last} onClick={() => onPage(page + 1)}>
          {t('widgets.table.nextPage')}
        </Button>
      </Box>
    </Box>
  );
}
