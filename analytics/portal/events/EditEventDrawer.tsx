import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventDto, EventUpdate } from '../../domain/schemas';
import { confirm } from '../../../src/ui/dialog/dialogStore';
import { useFormSubmit } from '../../../src/ui/form/useFormSubmit';
import { useDashboardMutation } from '../../dataProvider/dashboard';
import { showToast } from '../../../src/ui/toast/toastStore';
import { useAnalytics } from '../context';

const TEXTS = ['name', 'description', 'countName', 'sumName', 'durName'] as const;
type TextField = (typeof TEXTS)[number];

/** The edit event drawer: display names, description, visibility and omitted segments (their data purged after a confirmation). */
export function EditEventDrawer({ appId, event, onClose }: { appId: string; event: EventDto; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const [texts, setTexts] = useState<Record<TextField, string>>(() => Object.fromEntries(TEXTS.map((k) => [k, event[k] ?? ''])) as Record<TextField, string>);
  const [visible, setVisible] = useState(event.visible);
  const [omitted, setOmitted] = useState<string[]>(event.omittedSegments);
  const { run, failure, submitting: saving } = useFormSubmit();
  const update = useDashboardMutation(api, (a, body: EventUpdate) => a.updateEvent(appId, event.key, body));
  const segments = [...new Set([...event.segments, ...event.omittedSegments])];

  const save = async () => {
    const newlyOmitted = omitted.filter((s) => !event.omittedSegments.includes(s));
    if (newlyOmitted.length) {
      const ok = await confirm({ type: 'danger', title: t('analytics.edit.purgeTitle'), message: t('analytics.edit.purgeBody', { segments: newlyOmitted.join(', ') }), labels: { confirm: t('analytics.edit.purgeConfirm') } });
      if (!ok) return;
    }
    const blank = (s: string) => (s.trim() ? s.trim() : null);
    const saved = await run(() =>
      update.mutateAsync({
        name: blank(texts.name),
        description: blank(texts.description),
        countName: blank(texts.countName),
        sumName: blank(texts.sumName),
        durName: blank(texts.durName),
        visible,
        omittedSegments: omitted,
        confirmPurge: newlyOmitted.length > 0,
      }),
    );
    if (!saved) return;
    showToast({ text: t('analytics.edit.saved'), variant: 'successful' });
    onClose(true);
  };

  return (
    <Drawer anchor="right" open onClose={() => onClose(false)} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 440 } } } }}>
      <Box component="form" aria-label={t('analytics.edit.title')} sx={{ p: 3 }} onSubmit={(e) => (e.preventDefault(), void save())}>
        <Typography variant="h2" component="h2" sx={{ mb: 0.5 }}>
          {t('analytics.edit.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2, wordBreak: 'break-all' }}>
          {event.key}
        </Typography>
        <Stack spacing={2}>
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          <TextField label={t('analytics.edit.name')} value={texts.name} onChange={(e) => setTexts({ ...texts, name: e.target.value })} slotProps={{ htmlInput: { maxLength: 100 } }} />
          <TextField label={t('analytics.edit.description')} value={texts.description} multiline minRows={2} onChange={(e) => setTexts({ ...texts, description: e.target.value })} slotProps={{ htmlInput: { maxLength: 500 } }} />
          <Box>
            <FormControlLabel control={<Switch checked={visible} onChange={(e) => setVisible(e.target.checked)} />} label={t('analytics.edit.visible')} />
            <Typography variant="body2" color="text.secondary">
              {t('analytics.edit.visibleHint')}
            </Typography>
          </Box>
          {(['countName', 'sumName', 'durName'] as const).map((k) => (
            <TextField key={k} label={t(`analytics.edit.${k}`)} value={texts[k]} onChange={(e) => setTexts({ ...texts, [k]: e.target.value })} slotProps={{ htmlInput: { maxLength: 50 } }} />
          ))}
          {segments.length > 0 && (
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <FormLabel component="legend">{t('analytics.edit.omitted')}</FormLabel>
              <Typography variant="body2" color="text.secondary">
                {t('analytics.edit.omittedHint')}
              </Typography>
              <FormGroup>
                {segments.map((s) => (
                  <FormControlLabel
                    key={s}
                    label={s}
                    control={<Checkbox checked={omitted.includes(s)} onChange={(e) => setOmitted(e.target.checked ? [...omitted, s] : omitted.filter((o) => o !== s))} />}
                  />
                ))}
              </FormGroup>
            </Box>
          )}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={() => onClose(false)}>{t('analytics.cancel')}</Button>
            <Button type="submit" variant="contained" loading={saving}>
              {t('analytics.save')}
            </Button>
          </Stack>
        </Stack>
      </Box>
    </Drawer>
  );
}
