// A React 19 page: the raw tag, typed by the opt-in JSX entry, and the @lit/react wrapper. Each
// writes what its session event said into an <output>, through React state.
import '@form-embed/element/define';
import '@form-embed/element/react-jsx';
import type { FormEmbedSessionEvent } from '@form-embed/element';
import { FormEmbed } from '@form-embed/element/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function describeSession(event: FormEmbedSessionEvent): string {
  return `${event.provider} session on ${event.embedOrigin}`;
}

function App() {
  const [rawSession, setRawSession] = useState('');
  const [wrappedSession, setWrappedSession] = useState('');
  return (
    <>
      <form-embed
        form-id="form_microsoft"
        frame-title="Raw tag"
        loading="eager"
        id="raw"
        onform-embed-session={(event) => setRawSession(describeSession(event))}
      />
      <output id="raw-session">{rawSession}</output>
      <FormEmbed
        formId="form_microsoft"
        frameTitle="Wrapper"
        id="wrapped"
        onSession={(event) => setWrappedSession(describeSession(event))}
        onError={(event) => setWrappedSession(`error ${event.code}`)}
      />
      <output id="wrapped-session">{wrappedSession}</output>
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
