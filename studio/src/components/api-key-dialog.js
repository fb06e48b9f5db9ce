// The dialog that asks for an API key: opened from the header, and by the shell when the server
// answers 401 (no key, or a key it refuses) or 403 (a key with too little clearance for the call).

import { h } from '../dom.js';
import { apiKey, setApiKey } from '../credentials.js';

let open = null;

/** What the dialog says for a refusal (an ApiError), or for a visit from the header (null). */
function explain(refusal) {
  if (!refusal) return 'The studio sends this key with every request. It is kept in this browser tab only, until the tab closes.';
  if (refusal.status === 403) {
    return `Your API key is not allowed to do this. ${refusal.detail || refusal.title} `
      + 'Enter a key with more clearance, or go on with what this one allows.';
  }
  if (apiKey()) return `The server refused the API key. ${refusal.detail || refusal.title} Enter a valid key.`;
  return 'This server requires credentials. Enter an API key (folio.…) that an administrator created for you '
    + '(POST /admin/api-keys, or the api-keys create command).';
}

/**
 * Shows the dialog, or updates the one already shown. onChange() runs after a key was entered or
 * forgotten; closing without either changes nothing.
 */
export function showApiKeyDialog(refusal, onChange) {
  if (open) {
    open.message.textContent = explain(refusal);
    return;
  }
  const message = h('p', { id: 'api-key-message', class: refusal ? 'warn' : 'muted' }, explain(refusal));
  const input = h('input', {
    id: 'api-key-input', type: 'password', autocomplete: 'off', spellcheck: 'false', size: 48,
    placeholder: 'folio.…', 'aria-describedby': 'api-key-message',
  });
  const close = (changed) => {
    backdrop.remove();
    open = null;
    if (changed) onChange();
  };
  const form = h('form', {
    class: 'dialog', id: 'api-key-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'api-key-title',
    onsubmit: (event) => {
      event.preventDefault();
      if (!input.value.trim()) return;
      setApiKey(input.value);
      close(true);
    },
    onkeydown: (event) => { if (event.key === 'Escape') close(false); },
  },
  h('h2', { id: 'api-key-title' }, refusal?.status === 403 ? 'Not allowed' : 'API key'),
  message,
  h('div', { class: 'form-row' }, h('label', { for: 'api-key-input' }, 'API key'), input),
  h('div', { class: 'toolbar' },
    h('button', { class: 'primary', type: 'submit' }, 'Use key'),
    apiKey() ? h('button', { type: 'button', id: 'api-key-forget', onclick: () => { setApiKey(''); close(true); } }, 'Forget key') : null,
    h('button', { type: 'button', onclick: () => close(false) }, 'Cancel')));
  const backdrop = h('div', { class: 'dialog-backdrop' }, form);
  open = { message };
  document.body.append(backdrop);
  input.focus();
}
