/**
 * The widget harness: each shared widget of src/ui with demo data, for the Playwright spec and
 * for looking at them by eye. `?view=table` or `?view=picker` shows one widget alone.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import Stack from '@mui/material/Stack';
import { ThemeProvider } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { StrictMode, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
// The shared widgets are the signed-in apps' (their strings arrive with those apps).
import '../../src/appI18n';
import { i18n } from '../../src/i18n';
import { appTheme } from '../../src/theme';
import { DateRangePicker } from '../../src/ui/date/DateRangePicker';
import type { DateRangeValue } from '../../src/ui/date/dateRangeRules';
import { confirm, showMessage } from '../../src/ui/dialog/dialogStore';
import { DialogHost } from '../../src/ui/dialog/DialogHost';
import { CodeInput } from '../../src/ui/misc/CodeInput';
import { InitialsAvatar } from '../../src/ui/misc/InitialsAvatar';
import { MetricCard } from '../../src/ui/misc/MetricCard';
import { SizedPopover } from '../../src/ui/misc/SizedPopover';
import { SelectField, type SelectOption } from '../../src/ui/select/SelectField';
import type { DataTableColumn } from '../../src/ui/table/columns';
import { DataTable } from '../../src/ui/table/DataTable';
import { ToastHost } from '../../src/ui/toast/ToastHost';
import { showToast } from '../../src/ui/toast/toastStore';

interface DemoUser {
  _id: string;
  name: string;
  email: string;
  plan: string;
  mau: number;
  createdAt: Date;
  city: string;
  company: string;
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth'];
const PLANS = ['Free', 'Flex 1K', 'Flex 10K', 'Flex 100K'];
const CITIES = ['Oslo', 'Paris', 'Tokyo', 'Austin', 'Nairobi', 'Lima'];
const LOADED_AT = Date.now();
const FEBRUARY: DateRangeValue = [new Date(2026, 1, 1).getTime(), new Date(2026, 1, 28, 23, 59, 59, 999).getTime()];
const ROWS = Number(new URLSearchParams(location.search).get('rows') ?? 100_000);

/** Deterministic demo rows, so screenshots stay comparable. */
const users: DemoUser[] = Array.from({ length: ROWS }, (_, i) => {
  const first = FIRST[i % FIRST.length] ?? '';
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? '';
  return {
    _id: String(i + 1).padStart(6, '0'),
    name: `${first} ${last}`,
    email: `${first}.${last}${i + 1}@example.com`.toLowerCase(),
    plan: PLANS[i % PLANS.length] ?? '',
    mau: (i * 7919) % 250_000,
    createdAt: new Date(Date.UTC(2024, 0, 1) + ((i * 3_600_000 * 7) % (700 * 86_400_000))),
    city: CITIES[i % CITIES.length] ?? '',
    company: `Company ${(i % 40) + 1}`,
  };
});

const columns: DataTableColumn<DemoUser>[] = [
  { id: '_id', header: 'ID', value: (u) => u._id },
  { id: 'name', header: 'Name', value: (u) => u.name },
  { id: 'email', header: 'Email', value: (u) => u.email },
  { id: 'plan', header: 'Plan', value: (u) => u.plan },
  { id: 'mau', header: 'MAU', value: (u) => u.mau, render: (u) => u.mau.toLocaleString('en-US'), align: 'right' },
  { id: 'createdAt', header: 'Created', value: (u) => u.createdAt, render: (u) => u.createdAt.toISOString().slice(0, 10) },
  { id: 'city', header: 'City', value: (u) => u.city, dynamic: true, defaultSelected: true },
  { id: 'company', header: 'Company', value: (u) => u.company, dynamic: true },
];

const regions: SelectOption[] = ['Iowa', 'South Carolina', 'Frankfurt', 'London', 'Tokyo', 'Sydney', 'São Paulo'].map((label) => ({ value: label.toLowerCase(), label }));
const searchRegions = (search: string) =>
  new Promise<readonly SelectOption[]>((resolve) => setTimeout(() => resolve(regions.filter((r) => r.label.toLowerCase().includes(search.toLowerCase()))), 200));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 5 }}>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function TableDemo() {
  return <DataTable id="harness-users" label="Users" columns={columns} source={{ kind: 'local', rows: users }} getRowId={(u) => u._id} exportName="users" />;
}

function PickerDemo() {
  const [value, setValue] = useState<DateRangeValue>('30days');
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <DateRangePicker label="Period" value={value} onChange={setValue} maxRangeDays={400} />
      <output data-testid="picker-value">{JSON.stringify(value)}</output>
    </Stack>
  );
}

function MoreDemos() {
  const [month, setMonth] = useState<DateRangeValue>(FEBRUARY);
  const [future, setFuture] = useState<DateRangeValue>({ on: LOADED_AT });
  const [many, setMany] = useState<string[]>(['iowa']);
  const [one, setOne] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Section title="More pickers">
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <DateRangePicker label="Month" type="monthrange" value={month} onChange={setMonth} />
          <DateRangePicker label="Renewal date" type="date" allowFuture value={future} onChange={setFuture} />
        </Stack>
      </Section>
      <Section title="Toasts and dialogs">
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="outlined" onClick={() => showToast({ text: 'Deployment restarted', variant: 'successful' })}>
            Success toast
          </Button>
          <Button variant="outlined" onClick={() => showToast({ text: 'Server detail could not be loaded.', variant: 'destructive', color: 'dark', autoHide: false })}>
            Error toast
          </Button>
          <Button variant="outlined" onClick={() => void confirm({ type: 'danger', title: 'Delete server?', message: 'This cannot be undone.', labels: { confirm: 'Delete' } })}>
            Confirm
          </Button>
          <Button variant="outlined" onClick={() => void showMessage({ type: 'success', title: 'Server created', message: 'It is ready to use.' })}>
            Message
          </Button>
        </Stack>
      </Section>
      <Section title="Selects">
        <Stack spacing={2}>
          <SelectField label="Region" options={regions} value={one} onChange={setOne} />
          <SelectField label="Regions (2 to 3)" multiple min={2} max={3} options={regions} value={many} onChange={setMany} />
          <SelectField label="Remote search" value={null} onChange={() => undefined} loadOptions={searchRegions} />
        </Stack>
      </Section>
      <Section title="Metrics, avatars, popovers">
        <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 2, alignItems: 'center' }}>
          <MetricCard label="Monthly active users" value={123_456} description="Last 30 days" />
          <MetricCard label="Sessions" value={9_999} />
          <MetricCard label="Events" value={2_500_000} />
          <InitialsAvatar name="Ada Lovelace" />
          <InitialsAvatar name="grace" />
          <Button onClick={(e) => setAnchor(e.currentTarget)}>Open popover</Button>
          <SizedPopover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} size="medium" label="Details">
            <Typography>A medium popover.</Typography>
          </SizedPopover>
        </Stack>
      </Section>
      <Section title="Code input">
        <CodeInput label="Verification code" onComplete={setCode} />
        <output data-testid="code-value">{code}</output>
      </Section>
    </>
  );
}

function Harness() {
  const view = new URLSearchParams(location.search).get('view') ?? 'all';
  return (
    <Box component="main" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 1280, mx: 'auto' }}>
      {(view === 'all' || view === 'table') && (
        <Section title="Data table">
          <TableDemo />
        </Section>
      )}
      {(view === 'all' || view === 'picker') && (
        <Section title="Date range picker">
          <PickerDemo />
        </Section>
      )}
      {view === 'all' && <MoreDemos />}
      <ToastHost />
      <DialogHost />
    </Box>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={appTheme()}>
        <CssBaseline />
        <Harness />
      </ThemeProvider>
    </I18nextProvider>
  </StrictMode>,
);
