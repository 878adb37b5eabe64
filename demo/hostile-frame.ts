// The attacker's page of hostile.html, on another origin: each button posts a forged message.
const forged: Record<string, unknown> = {
  exact: { type: 'service:form-session', state: 'error' },
  extra: { type: 'service:form-session', state: 'expired', token: 'stolen' },
  type: { type: 'service:form-sessions', state: 'expired' },
  string: JSON.stringify({ type: 'service:form-session', state: 'error' }),
};
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-forge]')) {
  button.addEventListener('click', () =>
    parent.postMessage(forged[button.dataset.forge ?? ''], '*'),
  );
}
