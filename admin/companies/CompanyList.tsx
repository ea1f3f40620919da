import { PageHeading } from '../../src/ui/PageHeading';
import { AdminNav } from '../AdminNav';

/** Admin area: companies (SPEC §2 admin routes); the list arrives with the companies issue. */
export function CompanyList() {
  return (
    <>
      <AdminNav />
      <PageHeading titleKey="nav.companies" />
    </>
  );
}
