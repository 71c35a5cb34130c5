/**
 * Every error the server may answer with, keyed by the translation key the web app shows.
 * The key is the stable contract: clients branch on `i18NTranslationKey`, never on text.
 */
export const ERRORS = {
  // transport and generic
  validation_failed: { status: 400, title: 'One or more validation errors occurred.' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON.' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type.' },
  payload_too_large: { status: 413, title: 'The request body is too large.' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden (no access to the requested page)' },
  password_change_required: { status: 403, title: 'Change your password before you continue' },
  csrf_header_missing: { status: 403, title: 'The anti-forgery header X-CSRF is missing.' },
  not_found: { status: 404, title: 'Sorry, we could not find this page' },
  method_not_allowed: { status: 405, title: 'Method not allowed.' },
  too_many_requests: { status: 429, title: 'Too many requests, try again later' },
  something_went_wrong: { status: 500, title: 'Something went wrong. Please try again' },
  service_unavailable: { status: 503, title: 'The service is temporarily unavailable.' },
  invalid_operation: { status: 409, title: 'Invalid operation' },
  invalid_date: { status: 400, title: 'Enter a day as YYYY-MM-DD, from 0001-01-01 to 9999-12-31' },

  // identity
  invalid_login: { status: 400, title: 'Invalid login' },
  fill_all_required_fields: { status: 400, title: 'Fill all required fields' },
  password_error_no_match: { status: 400, title: 'Passwords do not match' },
  current_password_incorrect: { status: 409, title: 'The current password is incorrect' },
  password_required: { status: 400, title: 'Password is required' },
  password_too_short: { status: 400, title: 'Password must be at least 8 characters' },
  password_too_long: { status: 400, title: 'Password is too long' },
  password_requires_digit: { status: 400, title: 'Password requires a number' },
  password_requires_lower: { status: 400, title: 'Password requires a lowercase character' },
  password_requires_upper: { status: 400, title: 'Password requires an uppercase character' },
  password_requires_non_alphanumeric: { status: 400, title: 'Password requires a special character' },
  password_too_common: { status: 400, title: 'This password is too common' },
  fill_in_email: { status: 400, title: 'Fill in your e-mail address' },
  invalid_email_address: { status: 400, title: 'Invalid email address' },
  required_field: { status: 400, title: 'Required field' },
  first_name_required: { status: 400, title: 'First name is required' },
  last_name_required: { status: 400, title: 'Last name is required' },
  language_code_required: { status: 400, title: 'Language is required' },
  invalid_language_code: { status: 400, title: 'Language code must be one of en, nl, de, fr, es, pt-BR' },
  token_required: { status: 400, title: 'Token is required' },
  user_id_required: { status: 400, title: 'User id is required' },
  reset_link_expired: { status: 409, title: 'Your reset link has already been used or is expired' },
  external_identity_user: { status: 403, title: 'Accounts of an external identity provider have no password here' },
  email_address_already_exists: { status: 409, title: 'Email address already exists' },
  invalid_member_name: { status: 400, title: 'Invalid member name' },
  agreement_required: { status: 400, title: 'You must accept the privacy statement and the end user licence agreement' },
  external_login_failed: { status: 400, title: 'The external login failed' },
  interaction_expired: { status: 409, title: 'The login request has expired. Please start again' },
  unknown_error_id: { status: 404, title: 'Unknown error' },
  invalid_return_url: { status: 400, title: 'The return address is not allowed' },
  device_code_unknown: {
    status: 400,
    title: 'This code is unknown or has expired. Check the code your device shows, or start again on the device',
  },
  device_code_used: { status: 409, title: 'This code has already been used. Start again on the device' },

  // second factors
  second_factor_code_invalid: { status: 400, title: 'The code is not valid' },
  second_step_expired: { status: 409, title: 'The sign-in has expired. Please start again' },
  totp_already_enabled: { status: 409, title: 'An authenticator app is already set up' },
  totp_enrolment_not_started: { status: 409, title: 'Start setting up the authenticator app first' },
  second_factor_required: { status: 409, title: 'Set up a second factor before you continue' },
  recent_authentication_required: { status: 403, title: 'Confirm it is you: enter your password or a code again' },
  passkey_not_verified: { status: 400, title: 'The passkey could not be verified' },
  passkey_name_too_long: { status: 400, title: 'The name is too long' },
  second_factor_policy_inherited: { status: 409, title: 'A parent organization requires a second factor; it cannot be lifted here' },
  second_factor_policy_set_above: { status: 409, title: 'A higher organization set this requirement; only its managers can lift it' },

  // dealers' own identity: verified domains, SSO connections, access requests
  invalid_domain: { status: 400, title: 'Enter a domain such as dealer.example' },
  domain_not_claimable: { status: 409, title: 'Domains of public e-mail providers cannot be claimed' },
  domain_claimed: { status: 409, title: 'Another organization has already verified this domain' },
  domain_verification_failed: { status: 409, title: 'The TXT record was not found. Publish it and try again' },
  domain_not_verified: { status: 409, title: 'Verify the domain before a connection uses it' },
  invalid_issuer: { status: 400, title: 'Enter the issuer URL of the identity provider' },
  sso_discovery_failed: { status: 409, title: 'The identity provider could not be found at this issuer' },
  sso_domain_in_use: { status: 409, title: 'Another connection already signs in addresses of this domain' },
  sso_connection_inherited: { status: 409, title: 'This connection belongs to a higher organization; change it there' },
  sso_connection_configured: { status: 409, title: 'This connection is set by the server configuration' },
  sso_email_not_confirmed: { status: 400, title: '{{connection}} did not confirm this e-mail address' },
  sso_no_account: {
    status: 400,
    title: '{{connection}} signed you in, but no portal account belongs to this address. Ask your administrator for an invitation',
  },
  sso_sign_in_failed: {
    status: 400,
    title: '{{connection}} did not sign you in. If it should know you, ask the managers of {{organization}}',
  },
  account_deactivated: { status: 400, title: 'This account has been deactivated. Ask your administrator' },
  access_request_not_pending: { status: 409, title: 'This request has already been answered' },

  // service accounts
  unknown_service_account: { status: 404, title: 'Unknown service account' },
  cannot_delete_service_account_with_more_rights: {
    status: 403,
    title: 'You cannot delete a service account that holds rights you do not hold',
  },
  service_account_not_allowed: { status: 403, title: 'A service account cannot use this call' },
  service_account_needs_a_right: { status: 400, title: 'Give the service account at least one right: without one it can make no call' },
  invalid_bearer_token: { status: 401, title: 'The access token is not valid, has expired or belongs to a deleted service account' },
  bearer_token_with_cookie: { status: 401, title: 'Send either an access token or the session cookie, not both' },
  // SCIM
  unknown_scim_token: { status: 404, title: 'Unknown SCIM token' },
  too_many_scim_tokens: { status: 409, title: 'This organization has the most SCIM tokens it may keep. Delete one first' },
  // webhooks
  invalid_webhook_url: { status: 400, title: 'Enter an http:// or https:// address without a user name, password or #fragment' },
  webhook_url_not_allowed: { status: 400, title: 'This address is in a private network; webhooks cannot be sent to it' },
  unknown_webhook_event: { status: 400, title: 'Unknown event: choose events from the list, or all events' },
  unknown_webhook: { status: 404, title: 'This webhook or delivery does not exist' },
  // support access and support sessions
  not_during_support_session: { status: 403, title: 'This cannot be done during a support session' },
  support_access_not_allowed: { status: 403, title: 'The member’s organization does not allow support access' },
  support_member_manages_you: { status: 403, title: 'This member may manage your own organization; support cannot act as them' },
  support_reason_length: { status: 400, title: 'Give a reason of 10 to 500 characters' },
  support_minutes_range: { status: 400, title: 'Choose 5 to 60 minutes' },
  unknown_support_session: { status: 404, title: 'This support session does not exist' },
  support_session_ended: { status: 409, title: 'This support session has ended or was already started' },
  // audit streams
  invalid_audit_stream_kind: { status: 400, title: 'Choose HTTPS, Splunk HEC or Datadog' },
  audit_stream_url_not_allowed: { status: 400, title: 'This address is in a private network; audit streams cannot be sent to it' },
  unknown_audit_stream: { status: 404, title: 'This audit stream does not exist' },
  invalid_date_time: { status: 400, title: 'Enter a date and time (ISO 8601, with its time zone)' },
  // connection policy and setup links
  connections_not_allowed: {
    status: 409,
    title: 'A higher organization does not allow the organizations below it to connect identity providers or directories',
  },
  invalid_setup_capability: { status: 400, title: 'Choose what the link may set up: domains, single sign-on, SCIM or audit streams' },
  setup_capability_required: { status: 400, title: 'Choose at least one thing the link may set up' },
  invalid_expiry_days: { status: 400, title: 'Choose a validity of 1 to 14 days' },
  unknown_setup_link: { status: 404, title: 'This setup link does not exist, has expired or was revoked' },
  invalid_code: { status: 400, title: 'The code is not valid. Check the e-mail and try again, or ask for a new code' },
  setup_link_not_allowed: { status: 403, title: 'A setup link cannot use this call' },

  // organizations
  organization_name_required: { status: 400, title: 'Organization name is required' },
  invalid_organization_name: { status: 400, title: 'Invalid organization name' },
  invalid_path_characters: { status: 400, title: 'Invalid organization path: contains invalid characters' },
  invalid_organization_path_level: { status: 409, title: 'Invalid organization path: does not contain correct level' },
  sub_organization_path_already_exists: { status: 409, title: 'sub-organization path already exists' },
  maximum_number_of_sub_organizations_reached: { status: 409, title: 'Maximum number of sub-organizations has been reached' },
  not_allowed_to_create_sub_organizations: { status: 409, title: 'Not allowed to create sub organizations in this organization' },
  cannot_assign_apps_not_available: { status: 409, title: 'Cannot assign apps that are not available for the current organization' },
  cannot_delete_organization_with_members: { status: 409, title: 'Cannot delete organization with members' },
  cannot_delete_organization_with_sub_organizations: { status: 409, title: 'Cannot delete organization with sub organizations' },
  cannot_edit_own_organization: { status: 403, title: 'You cannot edit your own organization' },
  cannot_delete_own_organization: { status: 403, title: 'You cannot delete your own organization' },
  invalid_email_domain: { status: 400, title: 'Invalid e-mail domain' },

  // invitations
  unknown_invitation: { status: 404, title: 'Unknown invitation (contact your administrator)' },
  only_pending_invitations_can_be_accepted: { status: 409, title: 'Only pending invitations can be accepted' },
  only_pending_invitations_can_be_resent: { status: 409, title: 'Only pending invitations can be resent' },
  only_pending_invitations_can_be_revoked: { status: 409, title: 'Only pending invitations can be revoked' },
  not_allowed_to_invite_other_domains: { status: 409, title: 'Not allowed to invite users with email addresses from other domains' },
  invitation_already_pending: { status: 409, title: 'A pending invitation for this e-mail address already exists' },
  user_already_member: { status: 409, title: 'Email address already exists' },
  csv_invalid: { status: 400, title: 'The file could not be read as CSV with an e-mail column' },
  csv_no_rows: { status: 400, title: 'The file has no rows' },
  csv_too_many_rows: { status: 400, title: 'The file has too many rows (at most 1,000)' },

  // members and rights
  invalid_rights: { status: 409, title: 'These rights cannot be given in this organization' },
  cannot_remove_yourself: { status: 409, title: 'You cannot remove yourself' },
  unknown_member: { status: 404, title: 'Unknown member' },
  cannot_grant_rights_not_held: { status: 403, title: 'You cannot give or take away rights that you do not hold yourself' },
  cannot_manage_member_with_more_rights: {
    status: 403,
    title: 'You cannot change or remove a member who holds rights that you do not hold',
  },
  last_root_user_manager: { status: 409, title: "The provider's organization must keep at least one member who can manage users" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorKey = keyof typeof ERRORS;

export function isErrorKey(key: string): key is ErrorKey {
  return Object.hasOwn(ERRORS, key);
}
