// The studio's one piece of shared state: the chosen database and the theme.
// Views read it and subscribe to changes; nothing else is global.

const state = {
  database: localStorage.getItem('folio.database') || '',
  theme: localStorage.getItem('folio.theme') || 'auto',
};
const listeners = new Set();

export const getState = () => state;

/** Merges changes into the state and tells every subscriber which keys changed. */
export function setState(changes) {
  const changed = Object.keys(changes).filter((key) => state[key] !== changes[key]);
  if (!changed.length) return;
  Object.assign(state, changes);
  if (changed.includes('database')) localStorage.setItem('folio.database', state.database);
  if (changed.includes('theme')) localStorage.setItem('folio.theme', state.theme);
  for (const listener of [...listeners]) listener(state, changed);
}

/** Calls listener(state, changedKeys) after each change; returns the function that stops it. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
