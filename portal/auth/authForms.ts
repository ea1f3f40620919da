import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { authCodeSchema, emailOnlySchema, resetPasswordFormSchema, signInCodeSchema, signInSchema, signUpFormSchema } from '../../src/domain/auth/schemas';
import { invitedSignUpSchema } from '../../src/domain/companies/schemas';

/**
 * The front door's form validation: the shared schemas of src/domain (one rule, one place) as
 * react-hook-form resolvers. Pages load this module through `authForms.ts`'s loader, so zod comes
 * just after the first paint instead of before it (the front door's first-load budget).
 */

const credentialsSchema = signInSchema.pick({ email: true, password: true });
export type Credentials = z.output<typeof credentialsSchema>;

// The invited sign-up payload plus both agreement boxes, with the public sign-up's rule for them.
const invitedFormSchema = invitedSignUpSchema.extend({
  acceptTerms: signUpFormSchema.shape.acceptTerms,
  acceptPrivacy: signUpFormSchema.shape.acceptPrivacy,
});
export type InvitedFormValues = z.input<typeof invitedFormSchema>;

export const resolvers = {
  credentials: zodResolver(credentialsSchema),
  signInCode: zodResolver(z.object({ authCode: signInCodeSchema })),
  signUp: zodResolver(signUpFormSchema),
  invited: zodResolver(invitedFormSchema),
  resetPassword: zodResolver(resetPasswordFormSchema),
  emailOnly: zodResolver(emailOnlySchema),
};

/** A complete six-digit authenticator code. */
export const isAuthCode = (code: string) => authCodeSchema.safeParse(code).success;

export { emailOnlySchema };
