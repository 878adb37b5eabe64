// Plain text, compact on purpose: Lit does not minify CSS and the element has a size budget. The
// status area (the only div) fills the element while there is no frame, its message above its
// button (a grid), is a bar above the frame while it holds a notice, and takes no room when it has
// nothing to say. In the bar the notice's text (its slot) and Dismiss share a line while the text
// keeps 12em; narrower (a phone, 400% zoom, a long translation), Dismiss wraps below the text,
// which then has the bar's width instead of a thin column beside the button. The text grows no
// wider than it needs, so a wide bar keeps the two centred side by side. The frame may shrink
// below its default 150px (min-height:0) so that a notice taller than the element (a narrow one,
// a long translation, a reader's text spacing) squeezes the frame instead of pushing it out over
// the page below; Dismiss gives the frame its room back.
export const styles =
  ':host{display:flex;flex-flow:column;height:var(--form-embed-height,600px)}iframe{border:0;flex:1;min-height:0}div{display:grid;flex:1;place-content:center;place-items:center;gap:1em;text-align:center;color:var(--form-embed-status-color);background:var(--form-embed-status-background)}div:not(:empty){padding:1em}:host([state=framed]) div{display:flex;flex:0;flex-flow:wrap}slot{display:grid;flex:1 12em;max-width:max-content}button{font:inherit;min-width:24px;min-height:24px}';
