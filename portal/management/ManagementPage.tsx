import { PageHeading } from '../../src/ui/PageHeading';

/** Management (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function ManagementPage() {
  return <PageHeading titleKey="titles.management" />;
}
