/** What the login's form steps (email-step.tsx, password-step.tsx) get from the login page. */
export interface LoginStepProps {
  email: string;
  returnUrl: string | null;
  returnPath: string | null;
  /** the message above the form, as its translation key (translated as it shows, so that it follows a change of language; null: none) */
  onFormError: (key: string | null) => void;
  /** sign in elsewhere: an external identity provider's address */
  onExternal: (url: string) => void;
}
