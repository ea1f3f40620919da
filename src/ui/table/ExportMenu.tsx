import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExportFormat } from './exportFile';

export interface ExportMenuProps {
  busy: boolean;
  disabled?: boolean;
  onExport: (format: ExportFormat) => void;
}

/** 'Export' with a choice of CSV or JSON. */
export function ExportMenu({ busy, disabled, onExport }: ExportMenuProps) {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (format: ExportFormat) => {
    setAnchor(null);
    onExport(format);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={busy ? <CircularProgress size={16} aria-hidden /> : <FileDownloadIcon />}
        disabled={disabled || busy}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : 'false'}
        aria-controls={anchor ? menuId : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {busy ? t('widgets.table.exporting') : t('widgets.table.export')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('csv')}>{t('widgets.table.exportCsv')}</MenuItem>
        <MenuItem onClick={() => choose('json')}>{t('widgets.table.exportJson')}</MenuItem>
      </Menu>
    </>
  );
}
