import { z } from 'zod';
import { passwordSchema, USER_LANGUAGES } from '@partner-portal/contracts';

/** The registration form of an invitation (docs/product.md, "Validation"): names trimmed, language, agreement required. */
const name = (key: string) => z.string().trim().min(1, { message: key }).max(100, { message: 'invalid_member_name' });

const base = {
  first_name: name('first_name_required'),
  last_name: name('last_name_required'),
  language_code: z.enum(USER_LANGUAGES, { message: 'language_code_required' }),
  opt_in_for_newsletter: z.boolean(),
  accept_agreement: z.boolean().refine((v) => v, { message: 'agreement_required' }),
};

export const externalRegistrationSchema = z.object(base);
export type ExternalRegistration = z.infer<typeof externalRegistrationSchema>;

export const registrationSchema = z
  .object({ ...base, password: passwordSchema, password_confirmation: z.string().min(1, { message: 'password_required' }) })
  .refine((v) => v.password === v.password_confirmation, { message: 'password_error_no_match', path: ['password_confirmation'] });
export type Registration = z.infer<typeof registrationSchema>;

/** Where the browser goes after an external invitation is accepted: the upstream login that links the account. */
export function externalLoginUrl(invitationId: string): string {
  return `/api/identity/challenge-external-login?${new URLSearchParams({ returnUrl: '/', invitationLogin: invitationId }).toString()}`;
}
