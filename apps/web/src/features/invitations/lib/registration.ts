import { z } from 'zod';
import { acceptInvitationRequestSchema, passwordSchema, withPasswordConfirmation } from '@partner-portal/contracts';

/**
 * The registration form of an invitation (docs/product.md, "Validation"): the request's own rules
 * for the names and the language (packages/contracts, acceptInvitationRequestSchema), plus what
 * only the form asks: the agreement ticked, and for native accounts a password that meets the
 * policy, confirmed.
 */
export const externalRegistrationSchema = acceptInvitationRequestSchema
  .pick({ first_name: true, last_name: true, language_code: true })
  .extend({
    opt_in_for_newsletter: z.boolean(),
    accept_agreement: z.boolean().refine((v) => v, { message: 'agreement_required' }),
  });
export type ExternalRegistration = z.infer<typeof externalRegistrationSchema>;

export const registrationSchema = withPasswordConfirmation(
  externalRegistrationSchema.extend({
    password: passwordSchema,
    password_confirmation: z.string().min(1, { message: 'password_required' }),
  }),
  'password',
  'password_confirmation',
);
export type Registration = z.infer<typeof registrationSchema>;
/** What the form holds before parsing (the language is any string until checked). */
export type RegistrationInput = z.input<typeof registrationSchema>;

/** Where the browser goes after an external invitation is accepted: the upstream login that links the account. */
export function externalLoginUrl(invitationId: string): string {
  return `/api/identity/challenge-external-login?${new URLSearchParams({ returnUrl: '/', invitationLogin: invitationId }).toString()}`;
}
