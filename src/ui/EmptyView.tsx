import AddIcon from '@mui/icons-material/Add';
import InboxIcon from '@mui/icons-material/Inbox';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface EmptyViewProps {
  title?: string;
  message?: string;
  icon?: ReactNode;
  createLabel?: string;
  onCreate?: () => void;
  /** SPEC §6: without the right to create, the create action is not offered at all. */
  canCreate?: boolean;
  /** Another way out than creating (clearing the filters that left nothing). */
  action?: ReactNode;
}

/** What a list shows when it has nothing yet, with an optional create action. */
export function EmptyView({ title, message, icon, createLabel, onCreate, canCreate = true, action }: EmptyViewProps) {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1, py: 6, px: 2 }}>
      <Box aria-hidden sx={{ color: 'text.disabled', '& svg': { fontSize: 48 } }}>
        {icon ?? <InboxIcon />}
      </Box>
      <Typography variant="h2" component="p" sx={{ fontSize: '1.125rem' }}>
        {title ?? t('widgets.empty.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 420 }}>
        {message ?? t('widgets.empty.message')}
      </Typography>
      {canCreate && onCreate && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate} sx={{ mt: 1 }}>
          {createLabel ?? t('widgets.empty.create')}
        </Button>
      )}
      {action}
    </Box>
  );
}
