import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MIN_GROUP_EVENTS } from '../../domain/constants';
import type { GroupDto } from '../../domain/schemas';
import { useDashboardMutation, type GroupSave } from '../../dataProvider/dashboard';
import { useAnalytics } from '../context';
import { SaveDialog } from '../SaveDialog';

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
  const saveGroup = useDashboardMutation(api, (a, body: GroupSave) => a.saveGroup(appId, group?._id ?? null, body));
  const tooFew = keys.length < MIN_GROUP_EVENTS;
  const noName = !name.trim();

  const blank = (s: string) => (s.trim() ? s.trim() : null);
  const ready = () => {
    setTried(true);
    return !tooFew && !noName;
  };
  const save = () =>
    saveGroup.mutateAsync({
      name: name.trim(),
      description: blank(description),
      eventKeys: keys,
      visible,
      countName: blank(names.countName),
      sumName: blank(names.sumName),
      durName: blank(names.durName),
    });

  return (
    <SaveDialog title={group ? t('analytics.groups.editTitle') : t('analytics.groups.create')} onClose={onClose} ready={ready} save={save} savedText={t('analytics.groups.saved')}>
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
    </SaveDialog>
  );
}
