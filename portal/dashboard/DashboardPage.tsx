import { PageHeading } from '../../src/ui/PageHeading';

/** Dashboard (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function DashboardPage() {
  return <PageHeading titleKey="titles.dashboard" />;
}
