// A React 19 page: the raw tag, typed by the opt-in JSX entry, and the @lit/react wrapper. Each
// mints through the portal's CSRF-guarded endpoint with the token in `requestInit` (a property
// without an attribute, which React must set as a property for the header to be sent) and
// writes what its session event said into an <output>, through React state.
import '@form-embed/element/define';
import '@form-embed/element/react-jsx';
import type { FormEmbedSessionEvent } from '@form-embed/element';
import { FormEmbed } from '@form-embed/element/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

const endpoint = '/guarded-form-sessions';
const requestInit: RequestInit = { headers: { 'X-CSRF-Token': 'setup-csrf-token' } };

function describeSession(event: FormEmbedSessionEvent): string {
  return `${event.provider} session on ${event.embedOrigin}`;
}

function App() {
  const [rawSession, setRawSession] = useState('');
  const [wrappedSession, setWrappedSession] = useState('');
  const [notice, setNotice] = useState('');
  return (
    <>
      <form-embed
        form-id="form_microsoft"
        frame-title="Raw tag"
        loading="eager"
        id="raw"
        endpoint={endpoint}
        requestInit={requestInit}
        onform-embed-session={(event) => setRawSession(describeSession(event))}
        onform-embed-error={(event) => setRawSession(`error ${event.code}`)}
        onform-embed-notice={(event) => setNotice(event.reason)}
      />
      <output id="raw-session">{rawSession}</output>
      <FormEmbed
        formId="form_microsoft"
        id="wrapped"
        endpoint={endpoint}
        requestInit={requestInit}
        messages={{ frame: 'Wrapper' }}
        onSession={(event) => setWrappedSession(describeSession(event))}
        onError={(event) => setWrappedSession(`error ${event.code}`)}
        onNotice={(event) => setNotice(event.reason)}
      />
      <output id="wrapped-session">{wrappedSession}</output>
      <output id="notice">{notice}</output>
    </>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
