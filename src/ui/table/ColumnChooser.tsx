import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ColumnChooserProps {
  /** The dynamic columns, in table order. */
  options: readonly { id: string; header: string }[];
  selected: readonly string[];
  onToggle: (columnId: string) => void;
}

/** A menu of check items, one per dynamic column. */
export function ColumnChooser({ options, selected, onToggle }: ColumnChooserProps) {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ViewColumnIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : 'false'}
        aria-controls={anchor ? menuId : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {t('widgets.table.columns')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} slotProps={{ list: { 'aria-label': t('widgets.table.chooseColumns') } }}>
        {options.map((option) => {
          const checked = selected.includes(option.id);
          return (
            <MenuItem key={option.id} role="menuitemcheckbox" aria-checked={checked} onClick={() => onToggle(option.id)} dense>
              <ListItemIcon>
                <Checkbox edge="start" checked={checked} tabIndex={-1} disableRipple size="small" slotProps={{ input: { 'aria-hidden': true } }} />
              </ListItemIcon>
              <ListItemText primary={option.header} />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
