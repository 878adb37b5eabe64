// The attacker's page of hostile.html, on another origin: each button posts a forged message.
const forged: Record<string, unknown> = {
  exact: { type: 'service:form-session', state: 'error' },
  extra: { type: 'service:form-session', state: 'expired', token: 'stolen' },
  type: { type: 'service:form-sessions', state: 'expired' },
  string: JSON.stringify({ type: 'service:form-session', state: 'error' }),
};
const posted = document.getElementById('posted');
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-forge]')) {
  button.addEventListener('click', () => {
    parent.postMessage(forged[button.dataset.forge ?? ''], '*');
    // Said here, as the page says what its own buttons sent: a log that stays empty then reads
    // as refused, not as never sent. The time tells one click from the next.
    if (posted) {
      posted.textContent = `Posted to the portal page: ${button.textContent?.toLowerCase()}. (${new Date().toLocaleTimeString()})`;
    }
  });
}
