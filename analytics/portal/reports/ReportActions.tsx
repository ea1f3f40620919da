import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import SendIcon from '@mui/icons-material/Send';
import VisibilityIcon from '@mui/icons-material/Visibility';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportDto } from '../../domain/schemas';

interface Props {
  report: ReportDto;
  onSend: () => void;
  onPreview: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** A report row's actions: "Send now" at hand, preview, edit and delete in its menu. */
export function ReportActions({ report, onSend, onPreview, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  const items = [
    { key: 'preview', label: t('analytics.reports.preview'), icon: <VisibilityIcon fontSize="small" />, run: onPreview },
    { key: 'edit', label: t('analytics.editAction'), icon: <EditIcon fontSize="small" />, run: onEdit },
    { key: 'delete', label: t('analytics.delete'), icon: <DeleteIcon fontSize="small" />, run: onDelete },
  ];
  return (
    <Stack direction="row">
      <Tooltip title={t('analytics.reports.sendNow')}>
        <IconButton size="small" aria-label={`${t('analytics.reports.sendNow')} ${report.title}`} onClick={onSend}>
          <SendIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <IconButton size="small" aria-label={t('analytics.reports.actionsFor', { name: report.title })} aria-haspopup="menu" onClick={(e) => setAnchor(e.currentTarget)}>
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {items.map((item) => (
          <MenuItem key={item.key} onClick={pick(item.run)}>
            <ListItemIcon>{item.icon}</ListItemIcon>
            {item.label}
          </MenuItem>
        ))}
      </Menu>
    </Stack>
  );
}
