import { PageHeading } from '../../src/ui/PageHeading';

/** Profile (SPEC §2 logged-in routes); its content arrives with its own issue. */
export default function ProfilePage() {
  return <PageHeading titleKey="titles.profile" />;
}
