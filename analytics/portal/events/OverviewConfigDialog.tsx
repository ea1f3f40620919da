import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_OVERVIEW_TILES, TILE_PROPERTIES } from '../../domain/constants';
import type { Tile } from '../../domain/schemas';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import { useAnalytics } from '../context';
import { SaveDialog } from '../SaveDialog';
import { tileProblem } from './tiles';

interface Props {
  appId: string;
  events: { key: string; label: string }[];
  tiles: Tile[];
  onClose: (saved: boolean) => void;
}

/** Configure overview (admins): add and remove tiles, at most 12, each event-and-property pair once. */
export function OverviewConfigDialog({ appId, events, tiles: initial, onClose }: Props) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [tiles, setTiles] = useState<Tile[]>(initial);
  const [eventKey, setEventKey] = useState(events[0]?.key ?? '');
  const [property, setProperty] = useState<Tile['property']>('count');
  const [problem, setProblem] = useState<string | null>(null);
  const saveTiles = useDashboardMutation(api, (a, next: Tile[]) => a.saveTiles(appId, next));
  const labelOf = (key: string) => events.find((e) => e.key === key)?.label ?? key;

  const add = () => {
    const next = { eventKey, property };
    const issue = tileProblem(tiles, next);
    if (issue) return setProblem(issue === 'max' ? t('analytics.overview.maxTiles', { max: MAX_OVERVIEW_TILES }) : t('analytics.overview.duplicate'));
    setProblem(null);
    setTiles([...tiles, next]);
  };
  const save = () => {
    setProblem(null);
    return saveTiles.mutateAsync(tiles);
  };

  return (
    <SaveDialog title={t('analytics.overview.configure')} onClose={onClose} save={save} savedText={t('analytics.saved')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField select label={t('analytics.overview.event')} value={eventKey} onChange={(e) => setEventKey(e.target.value)} sx={{ flex: 2 }}>
          {events.map((e) => (
            <MenuItem key={e.key} value={e.key}>
              {e.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label={t('analytics.overview.property')} value={property} onChange={(e) => setProperty(e.target.value as Tile['property'])} sx={{ flex: 1 }}>
          {TILE_PROPERTIES.map((p) => (
            <MenuItem key={p} value={p}>
              {t(`analytics.metrics.${p}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" onClick={add} disabled={!eventKey}>
          {t('analytics.overview.addTile')}
        </Button>
      </Stack>
      {problem && (
        <Alert severity="warning" role="alert">
          {problem}
        </Alert>
      )}
      <List dense aria-label={t('analytics.nav.overview')}>
        {tiles.map((tile, i) => (
          <ListItem
            key={`${tile.eventKey}:${tile.property}`}
            secondaryAction={
              <IconButton edge="end" aria-label={`${t('analytics.overview.removeTile')} ${labelOf(tile.eventKey)}`} onClick={() => setTiles(tiles.filter((_, j) => j !== i))}>
                <DeleteIcon />
              </IconButton>
            }
          >
            <ListItemText primary={labelOf(tile.eventKey)} secondary={t(`analytics.metrics.${tile.property}`)} />
          </ListItem>
        ))}
      </List>
    </SaveDialog>
  );
}
