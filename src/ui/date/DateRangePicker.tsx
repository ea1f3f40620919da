import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import NativeSelect from '@mui/material/NativeSelect';
import Popover from '@mui/material/Popover';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { DateField } from '@mui/x-date-pickers/DateField';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TIMINGS } from '../../domain/constants';
import { useTimedMessage } from '../useTimedMessage';
import {
  checkDate,
  checkRangeValue,
  dateBounds,
  draftToValue,
  inTheLastUnits,
  isRangePair,
  keepValidDate,
  parseInTheLast,
  RANGE_MODES,
  resolveRange,
  SHORTCUT_KEYS,
  valueKind,
  type DateBounds,
  type DateRangeValue,
  type InTheLastUnit,
  type PickerType,
  type RangeMode,
  type ShortcutKey,
} from './dateRangeRules';

export interface DateRangePickerProps {
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
  /** Accessible name, e.g. 'Period'; the button also reads out the current value. */
  label: string;
  type?: PickerType;
  /** Range modes of the custom tab (daterange only). */
  modes?: readonly RangeMode[];
  /** Shortcut keys of the first tab (daterange only); an empty list hides the tab. */
  shortcuts?: readonly ShortcutKey[];
  /** Whether the data is kept per day: only then does 'in the last' offer days and weeks. */
  dayLevel?: boolean;
  /** Future pickers accept dates up to 10 years ahead. */
  allowFuture?: boolean;
  /** Longest range accepted, in days. */
  maxRangeDays?: number;
  /** The first moment there can be data: 'All time' starts there (and is exempt from maxRangeDays). */
  earliest?: number;
  disabled?: boolean;
}

const isMonthly = (type: PickerType) => type === 'month' || type === 'monthrange';
const dayFormat = 'D MMM YYYY';
const monthFormat = 'MMM YYYY';

/** The trigger's text for a value. */
function useDescribe(type: PickerType) {
  const { t } = useTranslation();
  const fmt = (ms: number) => dayjs(ms).format(isMonthly(type) ? monthFormat : dayFormat);
  return (value: DateRangeValue): string => {
    if (isRangePair(value)) {
      const [start, end] = value;
      return fmt(start) === fmt(end) ? fmt(start) : t('widgets.dateRange.between', { start: fmt(start), end: fmt(end) });
    }
    switch (valueKind(value)) {
      case 'shortcut':
        return t(`widgets.dateRange.shortcuts.${value as ShortcutKey}`);
      case 'inTheLast': {
        const last = parseInTheLast(value as string);
        return last ? t(`widgets.dateRange.last.${last.unit}`, { count: last.count }) : String(value);
      }
      case 'since':
        return t('widgets.dateRange.sinceLabel', { date: fmt((value as { since: number }).since) });
      default:
        return t('widgets.dateRange.onLabel', { date: fmt((value as { on: number }).on) });
    }
  };
}

/** A typed date field whose invalid input reverts on blur, with an optional calendar below. */
function EndpointEditor({
  label,
  type,
  bounds,
  value,
  onValue,
  calendar,
}: {
  label: string;
  type: PickerType;
  bounds: DateBounds;
  /** The last valid date. */
  value: Dayjs | null;
  onValue: (value: Dayjs | null) => void;
  calendar: boolean;
}) {
  // What the field shows, possibly mid-typing and invalid; `value` only ever holds valid dates.
  const [draft, setDraft] = useState<Dayjs | null>(value);
  const [shown, setShown] = useState(value);
  // The date the field held when this edit began: the last valid value the user chose.
  const [origin, setOrigin] = useState<Dayjs | null | undefined>(undefined);
  if (shown !== value) {
    // A pick in the calendar replaces whatever was being typed.
    setShown(value);
    setDraft(value);
  }
  const monthly = isMonthly(type);
  const min = dayjs(bounds.min);
  const max = dayjs(bounds.max);
  const onField = (next: Dayjs | null) => {
    setDraft(next);
    if (checkDate(next, bounds) === null) onValue(next);
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
      <DateField
        label={label}
        value={draft}
        onChange={onField}
        onFocus={() => setOrigin((o) => (o === undefined ? value : o))}
        onBlur={() => {
          // Valid dates apply while typing (so range feedback is live); an edit left invalid
          // goes back to where it started.
          const kept = keepValidDate(draft, origin === undefined ? value : origin, bounds);
          setOrigin(undefined);
          setDraft(kept);
          if (kept !== value) onValue(kept);
        }}
        minDate={min}
        maxDate={max}
        format={monthly ? 'MM/YYYY' : 'DD/MM/YYYY'}
        size="small"
        fullWidth
      />
      {calendar && (
        <DateCalendar
          value={value}
          onChange={(next: Dayjs | null) => onValue(next)}
          minDate={min}
          maxDate={max}
          views={monthly ? ['year', 'month'] : ['year', 'month', 'day']}
          openTo={monthly ? 'month' : 'day'}
          sx={{ width: 296, height: 'auto', maxHeight: 340, m: 0 }}
        />
      )}
    </Box>
  );
}

interface EditorProps extends Required<Omit<DateRangePickerProps, 'label' | 'onChange' | 'disabled' | 'maxRangeDays' | 'earliest'>> {
  maxRangeDays: number | undefined;
  earliest: number | undefined;
  now: number;
  onCommit: (value: DateRangeValue) => void;
  onCancel: () => void;
}

/** The popover's content; mounted on open, so its drafts start from the current value. */
function RangeEditor({ value, type, modes, shortcuts, dayLevel, allowFuture, maxRangeDays, earliest, now, onCommit, onCancel }: EditorProps) {
  const { t } = useTranslation();
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const tabsId = useId();
  const bounds = dateBounds(now, allowFuture);
  const rules = { bounds, maxDays: maxRangeDays, earliest };
  const describe = useDescribe(type);
  const [warning, warn] = useTimedMessage<number>(TIMINGS.commitWarningMs);

  const units = inTheLastUnits(dayLevel);
  const showShortcuts = type === 'daterange' && shortcuts.length > 0;
  const kind = valueKind(value);
  const [tab, setTab] = useState<'shortcuts' | 'custom'>(showShortcuts && kind === 'shortcut' ? 'shortcuts' : 'custom');
  const [mode, setMode] = useState<RangeMode>(kind !== 'shortcut' && modes.includes(kind) ? kind : (modes[0] ?? 'inBetween'));
  const [initialStart, initialEnd] = resolveRange(value, now);
  const validOrNull = (ms: number) => (checkDate(ms, bounds) === null ? dayjs(ms) : null);
  const [start, setStart] = useState<Dayjs | null>(() => validOrNull(initialStart));
  const [end, setEnd] = useState<Dayjs | null>(() => validOrNull(initialEnd));
  const parsedLast = typeof value === 'string' ? parseInTheLast(value) : null;
  const [countText, setCountText] = useState(String(parsedLast?.count ?? 30));
  const [unit, setUnit] = useState<InTheLastUnit>(parsedLast && units.includes(parsedLast.unit) ? parsedLast.unit : (units[0] ?? 'months'));
  const [activeEnd, setActiveEnd] = useState<'start' | 'end'>('start');

  /** Every way of choosing ends here: over-long ranges are refused with the 3-second warning. */
  const commit = (next: DateRangeValue) => {
    const check = checkRangeValue(next, now, rules);
    if (check.ok) onCommit(next);
    else if (check.reason === 'tooLong') warn(check.maxDays);
  };

  const count = /^\d+$/.test(countText) ? Number(countText) : null;
  const draftValue = draftToValue(type, mode, { start: start?.valueOf() ?? null, end: end?.valueOf() ?? null, count, unit }, bounds);
  const check = draftValue ? checkRangeValue(draftValue, now, rules) : null;
  const problem =
    check && !check.ok && check.reason !== 'tooLong'
      ? check.reason === 'startAfterEnd'
        ? t('widgets.dateRange.startAfterEnd')
        : t('widgets.dateRange.invalidDate', { min: dayjs(bounds.min).format(dayFormat), max: dayjs(bounds.max).format(dayFormat) })
      : null;
  const canApply = draftValue !== null && (check?.ok === true || (check?.ok === false && check.reason === 'tooLong'));

  const twoEnds = type === 'monthrange' || (type === 'daterange' && mode === 'inBetween');
  const fromLabel = isMonthly(type) ? t('widgets.dateRange.fromMonth') : t('widgets.dateRange.from');
  const toLabel = isMonthly(type) ? t('widgets.dateRange.toMonth') : t('widgets.dateRange.to');
  const singleLabel =
    type === 'month' ? t('widgets.dateRange.month') : type === 'date' ? t('widgets.dateRange.date') : mode === 'since' ? t('widgets.dateRange.since') : t('widgets.dateRange.on');

  const custom = (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {type === 'daterange' && modes.length > 1 && (
        <ToggleButtonGroup
          exclusive
          size="small"
          value={mode}
          onChange={(_, next: RangeMode | null) => next && setMode(next)}
          aria-label={t('widgets.dateRange.modeLabel')}
          sx={{ flexWrap: 'wrap' }}
        >
          {modes.map((m) => (
            <ToggleButton key={m} value={m} sx={{ px: 1.5 }}>
              {t(`widgets.dateRange.modes.${m}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      {type === 'daterange' && mode === 'inTheLast' ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-end' }}>
          <TextField
            label={t('widgets.dateRange.count')}
            type="number"
            size="small"
            value={countText}
            onChange={(e) => setCountText(e.target.value)}
            slotProps={{ htmlInput: { min: 1, step: 1, inputMode: 'numeric' } }}
            sx={{ width: 120 }}
          />
          <NativeSelect value={unit} onChange={(e) => setUnit(e.target.value as InTheLastUnit)} inputProps={{ 'aria-label': t('widgets.dateRange.unit') }}>
            {units.map((u) => (
              <option key={u} value={u}>
                {t(`widgets.dateRange.units.${u}`)}
              </option>
            ))}
          </NativeSelect>
        </Box>
      ) : twoEnds ? (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: narrow ? '1fr' : '1fr 1fr', gap: 2 }}>
            <Box onFocusCapture={() => setActiveEnd('start')}>
              <EndpointEditor label={fromLabel} type={type} bounds={bounds} value={start} onValue={setStart} calendar={!narrow} />
            </Box>
            <Box onFocusCapture={() => setActiveEnd('end')}>
              <EndpointEditor label={toLabel} type={type} bounds={bounds} value={end} onValue={setEnd} calendar={!narrow} />
            </Box>
          </Box>
          {narrow && (
            // One calendar on a phone, for whichever end was focused last, named by its field.
            <Box>
              <Typography variant="overline" component="p" color="text.secondary">
                {activeEnd === 'start' ? fromLabel : toLabel}
              </Typography>
              <LocalizedCalendar type={type} bounds={bounds} value={activeEnd === 'start' ? start : end} onValue={activeEnd === 'start' ? setStart : setEnd} />
            </Box>
          )}
        </>
      ) : (
        <EndpointEditor label={singleLabel} type={type} bounds={bounds} value={start} onValue={setStart} calendar />
      )}
    </Box>
  );

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, width: narrow ? 'calc(100vw - 32px)' : 'auto', maxWidth: '100%' }}>
      {showShortcuts && (
        <Tabs value={tab} onChange={(_, next: 'shortcuts' | 'custom') => setTab(next)} aria-label={t('widgets.dateRange.tabs')} sx={{ borderBottom: 1, borderColor: 'divider', minHeight: 40 }}>
          <Tab value="shortcuts" label={t('widgets.dateRange.shortcutsTab')} id={`${tabsId}-shortcuts`} aria-controls={`${tabsId}-panel`} sx={{ minHeight: 40 }} />
          <Tab value="custom" label={t('widgets.dateRange.customTab')} id={`${tabsId}-custom`} aria-controls={`${tabsId}-panel`} sx={{ minHeight: 40 }} />
        </Tabs>
      )}
      <Box id={`${tabsId}-panel`} role={showShortcuts ? 'tabpanel' : undefined} aria-labelledby={showShortcuts ? `${tabsId}-${tab}` : undefined}>
        {showShortcuts && tab === 'shortcuts' ? (
          <List dense disablePadding sx={{ minWidth: 240 }}>
            {shortcuts.map((key) => (
              <ListItemButton key={key} selected={value === key} onClick={() => commit(key)} sx={{ borderRadius: 1 }}>
                {describe(key)}
              </ListItemButton>
            ))}
          </List>
        ) : (
          custom
        )}
      </Box>
      {warning !== null && (
        <Alert severity="warning" role="alert">
          {t('widgets.dateRange.rangeLimit', { count: warning })}
        </Alert>
      )}
      {!(showShortcuts && tab === 'shortcuts') && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color={problem ? 'error' : 'text.secondary'} role={problem ? 'alert' : undefined} sx={{ flex: { xs: '1 1 100%', sm: '1 1 200px' } }}>
            {problem ?? (draftValue && check?.ok ? describe(draftValue) : '')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
            <Button onClick={onCancel}>{t('widgets.dateRange.cancel')}</Button>
            <Button variant="contained" disabled={!canApply} onClick={() => draftValue && commit(draftValue)}>
              {t('widgets.dateRange.apply')}
            </Button>
          </Box>
        </Box>
      )}
    </Box>
  );
}

function LocalizedCalendar({ type, bounds, value, onValue }: { type: PickerType; bounds: DateBounds; value: Dayjs | null; onValue: (v: Dayjs | null) => void }) {
  const monthly = isMonthly(type);
  return (
    <DateCalendar
      value={value}
      onChange={(next: Dayjs | null) => onValue(next)}
      minDate={dayjs(bounds.min)}
      maxDate={dayjs(bounds.max)}
      views={monthly ? ['year', 'month'] : ['year', 'month', 'day']}
      openTo={monthly ? 'month' : 'day'}
      sx={{ width: '100%', maxWidth: 320, height: 'auto', maxHeight: 340, m: 0 }}
    />
  );
}

/**
 * The date-range picker of SPEC §2: a button showing the value, opening shortcuts and a custom
 * range (in between, since, on a day, in the last), for day or month pickers.
 */
export function DateRangePicker({
  value,
  onChange,
  label,
  type = 'daterange',
  modes = RANGE_MODES,
  shortcuts = SHORTCUT_KEYS,
  dayLevel = true,
  allowFuture = false,
  maxRangeDays,
  earliest,
  disabled,
}: DateRangePickerProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Read when the popover opens, so 'today' is right even on a page left open overnight.
  const [now, setNow] = useState(0);
  // Keys the editor: each opening starts from the value, even while the last one fades out.
  const [openings, setOpenings] = useState(0);
  const describe = useDescribe(type);
  const dialogId = useId();
  const text = describe(value);
  return (
    <>
      <Button
        variant="outlined"
        color="inherit"
        disabled={disabled}
        startIcon={<CalendarMonthIcon />}
        endIcon={<ArrowDropDownIcon />}
        aria-label={`${label}: ${text}`}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : 'false'}
        aria-controls={anchor ? dialogId : undefined}
        onClick={(e) => {
          setNow(Date.now());
          setOpenings((n) => n + 1);
          setAnchor(e.currentTarget);
        }}
        sx={{ borderColor: 'divider', justifyContent: 'flex-start', fontWeight: 500, maxWidth: '100%' }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {text}
        </Box>
      </Button>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { id: dialogId, role: 'dialog', 'aria-label': label, sx: { mt: 0.5, maxWidth: 'calc(100vw - 16px)' } } }}
      >
        <LocalizationProvider dateAdapter={AdapterDayjs}>
          <RangeEditor
            key={openings}
            value={value}
            type={type}
            modes={modes}
            shortcuts={shortcuts}
            dayLevel={dayLevel}
            allowFuture={allowFuture}
            maxRangeDays={maxRangeDays}
            earliest={earliest}
            now={now}
            onCommit={(next) => {
              setAnchor(null);
              onChange(next);
            }}
            onCancel={() => setAnchor(null)}
          />
        </LocalizationProvider>
      </Popover>
    </>
  );
}
