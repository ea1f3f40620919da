import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companyMembers, users } from '../db/schema';

/** Who a server's mails go to (its company's admins) and where each leads (the server's page in the portal). */
export function createServerMailService({ db, publicUrl }: { db: Db; publicUrl: string }) {
  return {
    admins: (companyId: string) =>
      db
        .select({ email: users.email, firstName: users.firstName })
        .from(companyMembers)
        .innerJoin(users, eq(users.id, companyMembers.userId))
        .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, 'admin'))),
    pageLink: (d: { companyId: string; projectId: string; id: string }) => `${publicUrl}/#/c/${d.companyId}/p/${d.projectId}/deployments/${d.id}`,
  };
}

export type ServerMailService = ReturnType<typeof createServerMailService>;
