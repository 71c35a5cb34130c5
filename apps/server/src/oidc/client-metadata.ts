import { errors, type ClientMetadata, type Configuration } from 'oidc-provider';
import { isServiceAccountClientId } from '@partner-portal/contracts';

/**
 * The portal's rules for client metadata, on top of oidc-provider's own: every address a client
 * registers is a plain http(s) URI — no wildcard, no credentials, no space, control character (NUL)
 * or other character outside visible ASCII, which a URL parser would drop or rewrite while the
 * exact-match checks keep the stored text. They hold for every client the provider builds:
 * registration (POST /connect/dcr), update (RFC 7592 PUT) and the catalogue's apps.oidc_metadata
 * when it is loaded (a bad one fails closed). A refusal is oidc-provider's InvalidClientMetadata:
 * 400 invalid_redirect_uri for redirect_uris, invalid_client_metadata for the others.
 * The client_credentials grant is a service account's only (service-account-clients.ts): no other
 * client may register or be given it, so every machine that calls /api is a service account.
 */

/** Client metadata holding one address. */
const URI_PROPERTIES = [
  'client_uri',
  'logo_uri',
  'policy_uri',
  'tos_uri',
  'initiate_login_uri',
  'jwks_uri',
  'sector_identifier_uri',
  'backchannel_logout_uri',
  'frontchannel_logout_uri',
] as const;

/** Client metadata holding a list of addresses (a list that is not one is oidc-provider's to refuse). */
const URI_LISTS = ['redirect_uris', 'post_logout_redirect_uris'] as const;

/** Visible ASCII without `*`: what an address may hold. */
const URI_CHARACTERS = /^[\x21-\x29\x2B-\x7E]+$/;

function isPlainWebUri(value: unknown): boolean {
  if (typeof value !== 'string' || !URI_CHARACTERS.test(value)) return false;
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
}

const RULE = 'http(s) URI without wildcards, credentials, spaces or control characters';

function assertClientUris(metadata: ClientMetadata): void {
  for (const property of URI_PROPERTIES) {
    const value = metadata[property];
    if (value !== undefined && !isPlainWebUri(value)) throw new errors.InvalidClientMetadata(`${property} must be an ${RULE}`);
  }
  for (const property of URI_LISTS) {
    const values = metadata[property];
    if (Array.isArray(values) && !values.every(isPlainWebUri))
      throw new errors.InvalidClientMetadata(`${property} must only contain ${RULE}s`);
  }
}

/** The provider's extraClientMetadata: front-channel logout (README, "OpenID Connect") and the rules above. */
export const extraClientMetadata: NonNullable<Configuration['extraClientMetadata']> = {
  properties: ['frontchannel_logout_uri', 'frontchannel_logout_session_required'],
  // run once per property above, with the whole metadata: the addresses are checked with the first
  validator(_ctx, key, value, metadata) {
    if (key === 'frontchannel_logout_uri') {
      assertClientUris(metadata);
      if (metadata.grant_types?.includes('client_credentials') && !isServiceAccountClientId(metadata.client_id))
        throw new errors.InvalidClientMetadata('the client_credentials grant is for service accounts only');
    }
    if (key === 'frontchannel_logout_session_required' && value !== undefined && typeof value !== 'boolean')
      throw new errors.InvalidClientMetadata('frontchannel_logout_session_required must be a boolean');
  },
};
