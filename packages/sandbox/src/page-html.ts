/**
 * The framed pages' HTML: plain, accessible, with a little inline CSS and script. The script
 * posts `{type: 'service:form-session', state}` to the parent only when the page is framed
 * (`window.parent !== window`), and only when the server asked for it: `data-post` on the page
 * (`error` on each load of the sign-in error page, `expired` on the lapse page the first time
 * that lapse is noticed) or `post` in a Core lookup's answer (likewise once per lapse). Target
 * origin `'*'`: the page does not know the portal's origin and the message carries no secret.
 */
import { EMBED_MESSAGE_TYPE, type EmbedSessionState } from '@form-embed/protocol';

const style = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.25rem;color:#1f2328;background:#fff}
main{max-width:36rem}
h1{font-size:1.4rem;margin:0 0 .5rem}
.who{color:#57606a;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,textarea{font:inherit;width:100%;box-sizing:border-box;padding:.4rem;border:1px solid #8c959f;border-radius:4px}
button{font:inherit;margin-top:1rem;padding:.45rem 1rem;border-radius:4px;border:1px solid #1f6feb;background:#1f6feb;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f6feb}
output{display:block;margin-top:.5rem;min-height:1.5em}
.notice{border-left:4px solid #cf222e;padding:.5rem .75rem;background:#fff5f5}`;

/** What the framed page shows once its signed-in session has ended, rendered or written by script. */
const ENDED_HTML =
  '<h1>Your session has ended</h1><p class="notice" role="alert">Your session has ended. Open the form again to continue.</p>';

const script = `
(() => {
  const framed = window.parent !== window;
  const post = (state) => {
    if (framed) window.parent.postMessage({ type: ${JSON.stringify(EMBED_MESSAGE_TYPE)}, state }, '*');
  };
  const showEnded = () => {
    document.querySelector('main').innerHTML = ${JSON.stringify(ENDED_HTML)};
  };
  if (document.body.dataset.post) post(document.body.dataset.post);
  const lookup = document.getElementById('lookup');
  if (lookup) {
    lookup.addEventListener('click', async () => {
      const result = document.getElementById('lookup-result');
      result.textContent = 'Looking up...';
      let body = {};
      try {
        const answer = await fetch(lookup.dataset.action, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: document.getElementById('lookup-query').value }),
        });
        body = await answer.json();
      } catch {}
      if (body.state === 'expired') {
        showEnded();
        if (body.post) post('expired');
        return;
      }
      result.textContent = body.result ?? 'The lookup failed. Try again.';
    });
  }
})();`;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
}

function layout(title: string, body: string, post?: EmbedSessionState): string {
  const postAttr = post ? ` data-post="${post}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body${postAttr}>
<main aria-label="${escapeHtml(title)}">
${body}
</main>
<script>${script}</script>
</body>
</html>`;
}

export interface FormPageInput {
  formName: string;
  /** The signed-in identifier; undefined for an anonymous page. */
  signedInAs: string | undefined;
  /** Whether anyone is signed in (a portal session may carry no identifier). */
  signedIn: boolean;
  submitAction: string;
  /** Core forms: the same-origin lookup endpoint. */
  lookupAction?: string;
}

export function formPage(input: FormPageInput): string {
  const who = input.signedInAs
    ? `Signed in as ${escapeHtml(input.signedInAs)}`
    : input.signedIn
      ? 'Signed in through your portal'
      : 'You are not signed in: this form is anonymous';
  const lookup = input.lookupAction
    ? `<label for="lookup-query">Existing account to look up</label>
<input id="lookup-query" name="lookupQuery" type="text" autocomplete="off">
<button type="button" class="secondary" id="lookup" data-action="${escapeHtml(input.lookupAction)}">Look up</button>
<output id="lookup-result" aria-live="polite"></output>`
    : '';
  return layout(
    input.formName,
    `<h1>${escapeHtml(input.formName)}</h1>
<p class="who">${who}</p>
<form method="post" action="${escapeHtml(input.submitAction)}">
<label for="full-name">Full name</label>
<input id="full-name" name="fullName" type="text" autocomplete="name">
<label for="details">Details</label>
<textarea id="details" name="details" rows="3"></textarea>
${lookup}
<button type="submit">Submit</button>
</form>`,
  );
}

export function submittedPage(formName: string, reference: string): string {
  return layout(
    `Submitted: ${formName}`,
    `<h1>Submitted</h1>
<p role="status">Thank you. ${escapeHtml(formName)} was submitted with reference <strong>${escapeHtml(reference)}</strong>.</p>`,
  );
}

/** The lapse page; `post` is true only the first time this lapse is noticed. */
export function expiredPage(post: boolean): string {
  return layout('Your session has ended', ENDED_HTML, post ? 'expired' : undefined);
}

export function signInErrorPage(): string {
  return layout(
    'We could not sign you in',
    `<h1>We could not sign you in</h1>
<p class="notice" role="alert">This link has already been used or is too old. Open the form again to continue.</p>`,
    'error',
  );
}

export function notFoundPage(): string {
  return layout('Not found', '<h1>Not found</h1><p>There is no form at this address.</p>');
}

export function unexpectedErrorPage(): string {
  return layout(
    'Something went wrong',
    '<h1>Something went wrong</h1><p class="notice" role="alert">The form could not be shown. Try again later.</p>',
  );
}
