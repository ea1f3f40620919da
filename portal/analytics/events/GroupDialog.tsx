import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MIN_GROUP_EVENTS } from '../../../src/domain/analytics/constants';
import type { GroupDto } from '../../../src/domain/analytics/schemas';
import { failureMessage } from '../../../src/ui/form/messages';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';

interface Props {
  appId: string;
  group: GroupDto | null;
  events: { key: string; label: string }[];
  onClose: (saved: boolean) => void;
}

/** Create or edit an event group: name, description, at least 2 events, visibility and display names. */
export function GroupDialog({ appId, group, events, onClose }: Props) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [keys, setKeys] = useState<string[]>(group?.eventKeys ?? []);
  const [visible, setVisible] = useState(group?.visible ?? true);
  const [names, setNames] = useState({ countName: group?.countName ?? '', sumName: group?.sumName ?? '', durName: group?.durName ?? '' });
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const tooFew = keys.length < MIN_GROUP_EVENTS;
  const noName = !name.trim();

  const save = async () => {
    setTried(true);
    if (tooFew || noName) return;
    setSaving(true);
    setFailure(null);
    const blank = (s: string) => (s.trim() ? s.trim() : null);
    try {
      await api.saveGroup(appId, group?._id ?? null, {
        name: name.trim(),
        description: blank(description),
        eventKeys: keys,
        visible,
        countName: blank(names.countName),
        sumName: blank(names.sumName),
        durName: blank(names.durName),
      });
      showToast({ text: t('analytics.groups.saved'), variant: 'successful' });
      onClose(true);
    } catch (error) {
      setFailure(failureMessage(error, t));
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="sm">
      <DialogTitle>{group ? t('analytics.groups.editTitle') : t('analytics.groups.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <TextField label={t('analytics.groups.name')} value={name} onChange={(e) => setName(e.target.value)} required error={tried && noName} slotProps={{ htmlInput: { maxLength: 100 } }} />
          <TextField label={t('analytics.groups.description')} value={description} onChange={(e) => setDescription(e.target.value)} multiline minRows={2} />
          <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <FormLabel component="legend" error={tried && tooFew}>
              {t('analytics.groups.events')}
            </FormLabel>
            <FormGroup sx={{ maxHeight: 220, overflow: 'auto' }}>
              {events.map((e) => (
                <FormControlLabel
                  key={e.key}
                  label={e.label}
                  control={<Checkbox checked={keys.includes(e.key)} onChange={(ev) => setKeys(ev.target.checked ? [...keys, e.key] : keys.filter((k) => k !== e.key))} />}
                />
              ))}
            </FormGroup>
            <FormHelperText error={tried && tooFew} role={tried && tooFew ? 'alert' : undefined}>
              {tried && tooFew ? t('analytics.groups.tooFew') : t('analytics.groups.eventsHint')}
            </FormHelperText>
          </Stack>
          <FormControlLabel control={<Switch checked={visible} onChange={(e) => setVisible(e.target.checked)} />} label={t('analytics.groups.visible')} />
          {(['countName', 'sumName', 'durName'] as const).map((k) => (
            <TextField key={k} label={t(`analytics.groups.${k}`)} value={names[k]} onChange={(e) => setNames({ ...names, [k]: e.target.value })} slotProps={{ htmlInput: { maxLength: 50 } }} />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('analytics.cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} loading={saving}>
          {t('analytics.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
