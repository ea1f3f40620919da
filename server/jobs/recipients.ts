import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companyMembers, users } from '../db/schema';

/** Who a server's mails go to: its company's admins. */
export const companyAdmins = (db: Db, companyId: string) =>
  db
    .select({ email: users.email, firstName: users.firstName })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, 'admin')));

/** A server's page in the portal, where each mail about it leads. */
export const serverPageLink = (publicUrl: string, d: { companyId: string; projectId: string; id: string }) => `${publicUrl}/#/c/${d.companyId}/p/${d.projectId}/deployments/${d.id}`;
