import { PageHeading } from '../../src/ui/PageHeading';

/** Deployments (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function DeploymentsPage() {
  return <PageHeading titleKey="titles.deployments" />;
}
