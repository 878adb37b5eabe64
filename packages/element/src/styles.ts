// Plain text, compact on purpose: Lit does not minify CSS and the element has a size budget. The
// status area (the only div) fills the element while there is no frame, is a bar above the frame
// while it holds a notice, and takes no room when it has nothing to say. The frame may shrink
// below its default 150px (min-height:0) so that a notice taller than the element (a narrow one,
// a long translation, a reader's text spacing) squeezes the frame instead of pushing it out over
// the page below; Dismiss gives the frame its room back.
export const styles =
  ':host{display:flex;flex-flow:column;height:var(--form-embed-height,600px)}iframe{border:0;flex:1;min-height:0}div{display:flex;place-content:center;place-items:center;gap:1em;text-align:center;color:var(--form-embed-status-color);background:var(--form-embed-status-background)}div:not(:empty){padding:1em}:host(:not([state=framed])) div{flex:1;flex-flow:column}button{font:inherit;min-width:24px;min-height:24px;flex:none}';
