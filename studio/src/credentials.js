// The API key the studio sends, for servers started with Security:Authentication=Required.
// It lives in sessionStorage: it survives a reload but not closing the tab, and no other site or
// tab reads it. The server reads it from "Authorization: ApiKey <key>" (src/Server/Security).

const storageKey = 'folio.apiKey';

/** The key the user entered in this tab, or ''. */
export const apiKey = () => sessionStorage.getItem(storageKey) || '';

/** Keeps a key for this tab; an empty key forgets it. */
export function setApiKey(key) {
  const text = (key || '').trim();
  if (text) sessionStorage.setItem(storageKey, text);
  else sessionStorage.removeItem(storageKey);
}

/** The headers that carry the key, or none when there is no key. */
export function authorizationHeaders() {
  const key = apiKey();
  return key ? { Authorization: `ApiKey ${key}` } : {};
}

/**
 * Tells the shell that the server refused a call for want of credentials (401) or clearance (403),
 * so it can ask for a key; error is the ApiError.
 */
export function reportRefusal(error) {
  window.dispatchEvent(new CustomEvent('folio:refused', { detail: error }));
}
