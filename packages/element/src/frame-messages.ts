import { isEmbedMessage } from '@form-embed/protocol/browser';

/**
 * Calls `onLapse` with the state the page in `frame` posts, until `signal` aborts. A message
 * counts only from that frame's window, on `embedOrigin`, with exactly the embedded form
 * message's shape (docs/contract.md#embedded-form-message); everything else is ignored.
 */
export function listenToFrame(
  frame: HTMLIFrameElement,
  embedOrigin: string,
  signal: AbortSignal,
  onLapse: (state: 'error' | 'expired') => void,
) {
  // The frame's window, where its page posts: not this module's, once the element is moved
  // into another document (a Document Picture-in-Picture window).
  (frame.ownerDocument.defaultView as Window).addEventListener(
    'message',
    ({ source, origin, data }) => {
      // A null source never counts: a frame out of its document has a null contentWindow too.
      if (
        source &&
        source === frame.contentWindow &&
        origin === embedOrigin &&
        isEmbedMessage(data)
      ) {
        onLapse(data.state);
      }
    },
    { signal },
  );
}
