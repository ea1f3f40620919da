import { PageHeading } from '../../src/ui/PageHeading';

/** Admin area: companies (SPEC §2 admin routes); the list arrives with the companies issue. */
export function CompanyList() {
  return <PageHeading titleKey="nav.companies" />;
}
