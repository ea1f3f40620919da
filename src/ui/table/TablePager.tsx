import FirstPageIcon from '@mui/icons-material/FirstPage';
import LastPageIcon from '@mui/icons-material/LastPage';
import NavigateBeforeIcon from '@mui/icons-material/NavigateBefore';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import NativeSelect from '@mui/material/NativeSelect';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../numbers';
import { clampPage, PAGE_SIZES, pageList, pageSelectorKind, showingRange } from './tableQuery';

export interface TablePagerProps {
  page: number;
  /** Unknown until a server-side table has its first answer. */
  total: number | undefined;
  last: number;
  perPage: number;
  disabled?: boolean;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}

/** Above 200 pages: typed page number, committed on Enter or when leaving the field. */
function PageInput({ page, last, label, disabled, onPage }: { page: number; last: number; label: string; disabled?: boolean; onPage: (page: number) => void }) {
  const [draft, setDraft] = useState(String(page));
  const commit = () => {
    const typed = Number.parseInt(draft, 10);
    const next = Number.isNaN(typed) ? page : clampPage(typed, last);
    setDraft(String(next));
    if (next !== page) onPage(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter') commit();
  };
  return (
    <OutlinedInput
      size="small"
      type="number"
      value={draft}
      disabled={disabled}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={onKeyDown}
      inputProps={{ 'aria-label': label, min: 1, max: last, inputMode: 'numeric' }}
      sx={{ width: `${Math.max(5, String(last).length + 3)}ch`, '& input': { py: 0.5 } }}
    />
  );
}

/** Page size, 'Showing _START_ to _END_ of _TOTAL_', first/previous/next/last and a page selector. */
export function TablePager({ page, total, last, perPage, disabled, onPage, onPerPage }: TablePagerProps) {
  const { t } = useTranslation();
  const perPageId = useId();
  const range = total === undefined ? null : showingRange(page, perPage, total);
  const atFirst = page <= 1;
  const atLast = page >= last;
  const pageLabel = t('widgets.table.page');
  return (
    <Box
      component="nav"
      aria-label={t('widgets.table.pagination')}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', columnGap: 3, rowGap: 1, px: 2, py: 1.5 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 3, rowGap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography component="label" htmlFor={perPageId} variant="body2" color="text.secondary">
            {t('widgets.table.rowsPerPage')}
          </Typography>
          <NativeSelect id={perPageId} value={perPage} disabled={disabled} onChange={(e) => onPerPage(Number(e.target.value))} sx={{ fontSize: '0.875rem' }}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect>
        </Box>
        {range && (
          <Typography variant="body2" color="text.secondary" aria-live="polite">
            {t('widgets.table.showing', { start: formatCount(range.start), end: formatCount(range.end), total: formatCount(range.total) })}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <IconButton size="small" aria-label={t('widgets.table.firstPage')} disabled={disabled || atFirst} onClick={() => onPage(1)}>
          <FirstPageIcon />
        </IconButton>
        <IconButton size="small" aria-label={t('widgets.table.previousPage')} disabled={disabled || atFirst} onClick={() => onPage(clampPage(page - 1, last))}>
          <NavigateBeforeIcon />
        </IconButton>
        {pageSelectorKind(last) === 'input' ? (
          // Keyed by page so the draft starts over whenever the page changes elsewhere.
          <PageInput key={page} page={page} last={last} label={pageLabel} disabled={disabled} onPage={onPage} />
        ) : (
          <NativeSelect value={page} disabled={disabled} onChange={(e) => onPage(clampPage(Number(e.target.value), last))} inputProps={{ 'aria-label': pageLabel }} sx={{ fontSize: '0.875rem' }}>
            {pageList(last).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </NativeSelect>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {t('widgets.table.pageOf', { last: formatCount(last) })}
        </Typography>
        <IconButton size="small" aria-label={t('widgets.table.nextPage')} disabled={disabled || atLast} onClick={() => onPage(clampPage(page + 1, last))}>
          <NavigateNextIcon />
        </IconButton>
        <IconButton size="small" aria-label={t('widgets.table.lastPage')} disabled={disabled || atLast} onClick={() => onPage(last)}>
          <LastPageIcon />
        </IconButton>
      </Box>
    </Box>
  );
}
