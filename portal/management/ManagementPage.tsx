import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Link as RouterLink, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { useSelection } from '../../src/companySelection';
import { EmptyView } from '../../src/ui/EmptyView';
import { QueryFailure } from '../../src/ui/QueryFailure';
import { PageHeading } from '../../src/ui/PageHeading';
import { BillingSettings } from './BillingSettings';
import { QuotePage } from './Quotes';
import { CompanySettings } from './CompanySettings';
import { ProjectSettings } from './ProjectSettings';
import { TeamSettings } from './TeamSettings';
import { useCompanyData, type CompanyData } from './useCompanyData';
import '../../src/managementI18n';

/** SPEC §2: management's children, in tab order. */
export const MANAGEMENT_SECTIONS = ['company', 'team', 'project', 'billing'] as const;
export type ManagementSection = (typeof MANAGEMENT_SECTIONS)[number];

interface GateProps {
  companyId: string | null;
  polled: ReturnType<typeof useCompanyData>;
  children: (data: CompanyData) => ReactNode;
}

/** What a company child shows before its data is in: no company, loading, or why loading failed. */
function CompanyGate({ companyId, polled, children }: GateProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!companyId) {
    return (
      <Paper variant="outlined">
        <EmptyView title={t('management.noCompany.title')} message={t('management.noCompany.message')} createLabel={t('management.noCompany.create')} onCreate={() => navigate('/account/company')} />
      </Paper>
    );
  }
  if (polled.data) return children(polled.data);
  if (polled.error) {
    return <QueryFailure error={polled.error} retry={{ label: t('management.retry'), onClick: () => void polled.reload() }} />;
  }
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, py: 8 }}>
      <CircularProgress size={24} aria-hidden />
      <Typography color="text.secondary">{t('management.loading')}</Typography>
    </Box>
  );
}

/**
 * Management (SPEC §2): company, team, project and billing of the selected company, one tab each;
 * `/management` itself goes on to the company tab. Also serves the project-scoped form
 * `/c/{cid}/p/{pid}/management`, whose links keep that form.
 */
export default function ManagementPage() {
  const { t } = useTranslation();
  const { cid, pid } = useParams();
  const { pathname } = useLocation();
  const { companyId } = useSelection();
  const polled = useCompanyData(companyId);
  const base = cid && pid ? `/c/${encodeURIComponent(cid)}/p/${encodeURIComponent(pid)}/management` : '/management';
  const section = MANAGEMENT_SECTIONS.find((s) => pathname === `${base}/${s}` || pathname.startsWith(`${base}/${s}/`));
  // Children are keyed by company: edits made for one company never carry over to the next.
  const gate = (render: (data: CompanyData) => ReactNode) => (
    <CompanyGate companyId={companyId} polled={polled}>
      {render}
    </CompanyGate>
  );
  return (
    <>
      <PageHeading titleKey="titles.management" />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs value={section ?? false} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={t('management.sections')}>
          {MANAGEMENT_SECTIONS.map((s) => (
            <Tab key={s} value={s} label={t(`management.tabs.${s}`)} component={RouterLink} to={`${base}/${s}`} sx={{ minWidth: { xs: 0, sm: 90 }, px: { xs: 1.5, sm: 2 } }} />
          ))}
        </Tabs>
      </Box>
      <Box sx={{ maxWidth: 960 }}>
        <Routes>
          <Route index element={<Navigate to={`${base}/company`} replace />} />
          <Route path="company" element={gate((data) => <CompanySettings key={data.company._id} company={data.company} onSaved={(saved) => polled.put({ ...data, company: saved })} />)} />
          <Route path="team" element={gate(({ company, team }) => <TeamSettings key={company._id} company={company} team={team} reload={polled.reload} />)} />
          <Route path="project" element={gate(({ company }) => <ProjectSettings key={company._id} company={company} />)} />
          <Route path="billing" element={<BillingSettings />} />
          <Route path="billing/quotes/:quoteId" element={<QuotePage />} />
          <Route path="*" element={<Navigate to={`${base}/company`} replace />} />
        </Routes>
      </Box>
    </>
  );
}
