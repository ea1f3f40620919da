import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { createCompanySchema, designationSchema } from '../../src/domain/companies/schemas';

// The onboarding form: the company, plus the person's own role (sent as the designation query).
// Loaded by CompanyPage after it starts, so zod stays out of its first-load JS.
const companyFormSchema = createCompanySchema.extend({ designation: designationSchema });
export type CompanyForm = z.input<typeof companyFormSchema>;
export const companyResolver = zodResolver(companyFormSchema);
