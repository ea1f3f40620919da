import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REPORT_DAY_OF_MONTH, REPORT_FREQUENCIES, REPORT_METRICS, type ReportFrequency, type ReportMetric } from '../../domain/constants';
import { reportInputSchema, type AppDto, type ReportDto } from '../../domain/schemas';
import { timeZones } from '../apps/timeZones';
import { useDashboardMutation, type ReportSave } from '../../dataProvider/dashboard';
import { useAnalytics } from '../context';
import { SaveDialog } from '../SaveDialog';
import { WEEKDAYS } from './schedule';

interface Props {
  report: ReportDto | null;
  /** The apps the member administers: a report may cover only those. */
  apps: AppDto[];
  onClose: (saved: boolean) => void;
}

const pad = (n: number) => String(n).padStart(2, '0');
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Create or edit an email report: title, metrics, apps, recipients and when it is sent. */
export function ReportDialog({ report, apps, onClose }: Props) {
  const { t } = useTranslation();
  const { api } = useAnalytics();
  const saveReport = useDashboardMutation(api, (a, next: ReportSave) => a.saveReport(report?._id ?? null, next));
  const [title, setTitle] = useState(report?.title ?? '');
  const [metrics, setMetrics] = useState<ReportMetric[]>(report?.metrics ?? ['analytics', 'events']);
  const [appIds, setAppIds] = useState<string[]>(report?.apps ?? (apps[0] ? [apps[0]._id] : []));
  const [emails, setEmails] = useState((report?.emails ?? []).join('\n'));
  const [frequency, setFrequency] = useState<ReportFrequency>(report?.frequency ?? 'daily');
  const [time, setTime] = useState(report ? `${pad(report.hour)}:${pad(report.minute)}` : '09:00');
  const [timezone, setTimezone] = useState(report?.timezone ?? browserZone());
  const [dayOfWeek, setDayOfWeek] = useState(report?.dayOfWeek ?? 1);
  const [dayOfMonth, setDayOfMonth] = useState(report?.dayOfMonth ?? 1);
  const [enabled, setEnabled] = useState(report?.enabled ?? true);
  const [tried, setTried] = useState(false);
  const zones = useMemo(() => timeZones(), []);

  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const body = {
    title,
    metrics,
    apps: appIds,
    emails: emails.split(/[\s,;]+/).filter(Boolean),
    frequency,
    hour: Number.isFinite(hour) ? hour : -1,
    minute: Number.isFinite(minute) ? minute : -1,
    timezone,
    dayOfWeek: frequency === 'weekly' ? dayOfWeek : null,
    dayOfMonth: frequency === 'monthly' ? dayOfMonth : null,
    enabled,
  };
  // The same rules as the API: the field names of the issues say what to mark.
  const parsed = reportInputSchema.safeParse(body);
  const problems = new Set(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0])));
  const shows = (field: string) => tried && problems.has(field);

  const ready = () => {
    setTried(true);
    return parsed.success;
  };

  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

  return (
    <SaveDialog title={report ? t('analytics.reports.editTitle') : t('analytics.reports.create')} onClose={onClose} ready={ready} save={() => saveReport.mutateAsync(body)} savedText={t('analytics.reports.saved')}>
      <TextField label={t('analytics.reports.name')} value={title} onChange={(e) => setTitle(e.target.value)} required error={shows('title')} helperText={shows('title') ? t('validation.required') : undefined} slotProps={{ htmlInput: { maxLength: 100 } }} />
      <TextField
        label={t('analytics.reports.emails')}
        value={emails}
        onChange={(e) => setEmails(e.target.value)}
        required
        multiline
        minRows={2}
        error={shows('emails')}
        helperText={shows('emails') ? t('analytics.reports.emailsInvalid') : t('analytics.reports.emailsHint')}
      />
      <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <FormLabel component="legend" error={shows('metrics')}>
          {t('analytics.reports.metrics')}
        </FormLabel>
        <FormGroup row>
          {REPORT_METRICS.map((m) => (
            <FormControlLabel key={m} label={t(`analytics.reports.metricNames.${m}`)} control={<Checkbox checked={metrics.includes(m)} onChange={(e) => setMetrics(toggle(metrics, m, e.target.checked))} />} />
          ))}
        </FormGroup>
        {shows('metrics') && <FormHelperText error>{t('analytics.reports.metricsRequired')}</FormHelperText>}
      </Stack>
      <Stack component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <FormLabel component="legend" error={shows('apps')}>
          {t('analytics.reports.apps')}
        </FormLabel>
        <FormGroup sx={{ maxHeight: 180, overflow: 'auto', flexWrap: 'nowrap' }}>
          {apps.map((a) => (
            <FormControlLabel key={a._id} label={a.name} control={<Checkbox checked={appIds.includes(a._id)} onChange={(e) => setAppIds(toggle(appIds, a._id, e.target.checked))} />} />
          ))}
        </FormGroup>
        {shows('apps') && <FormHelperText error>{t('analytics.reports.appsRequired')}</FormHelperText>}
      </Stack>
      <TextField select label={t('analytics.reports.frequency')} value={frequency} onChange={(e) => setFrequency(e.target.value as ReportFrequency)}>
        {REPORT_FREQUENCIES.map((f) => (
          <MenuItem key={f} value={f}>
            {t(`analytics.reports.frequencies.${f}`)}
          </MenuItem>
        ))}
      </TextField>
      {frequency === 'weekly' && (
        <TextField select label={t('analytics.reports.dayOfWeek')} value={dayOfWeek} onChange={(e) => setDayOfWeek(Number(e.target.value))}>
          {WEEKDAYS.map((d) => (
            <MenuItem key={d} value={d}>
              {t(`analytics.reports.weekdays.${d}`)}
            </MenuItem>
          ))}
        </TextField>
      )}
      {frequency === 'monthly' && (
        <TextField select label={t('analytics.reports.dayOfMonth')} value={dayOfMonth} onChange={(e) => setDayOfMonth(Number(e.target.value))} helperText={t('analytics.reports.dayOfMonthHint')}>
          {Array.from({ length: MAX_REPORT_DAY_OF_MONTH }, (_, i) => i + 1).map((d) => (
            <MenuItem key={d} value={d}>
              {d}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField type="time" label={t('analytics.reports.time')} value={time} onChange={(e) => setTime(e.target.value)} error={shows('hour') || shows('minute')} required sx={{ minWidth: 160 }} slotProps={{ inputLabel: { shrink: true } }} />
        <TextField select label={t('analytics.reports.timezone')} value={timezone} onChange={(e) => setTimezone(e.target.value)} sx={{ flex: 1 }} slotProps={{ select: { native: true } }}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </TextField>
      </Stack>
      <FormControlLabel control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />} label={t('analytics.reports.enabled')} />
    </SaveDialog>
  );
}
