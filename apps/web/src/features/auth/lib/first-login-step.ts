/** The step the login page opens at: the second step a sign-in at an identity provider continues with (?next_step=), else the e-mail step. */
export function firstLoginStep(nextStep: string | null): 'email' | 'second_factor' | 'enrol' {
  if (nextStep === 'second_factor') return 'second_factor';
  if (nextStep === 'enrol_second_factor') return 'enrol';
  return 'email';
}
