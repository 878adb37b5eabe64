// Plain text, compact on purpose: Lit does not minify CSS and the element has a size budget. The
// status area (the only div) fills the element while there is no frame, its message above its
// button (a grid), is a bar above the frame while it holds a notice, and takes no room when it has
// nothing to say. A page's own content in a slot is centred there as the area's items are (a
// spinner narrower than its words). In the bar the notice's text (its slot) and Dismiss share a
// line while the text keeps 12em; narrower (a phone, 400% zoom, a long translation), Dismiss wraps
// below the text, which then has the bar's width instead of a thin column beside the button. The
// text grows no wider than it needs, so a wide bar keeps the two centred side by side. Forced
// colours (a Windows contrast theme) drop the bar's background, so the bar holding a notice has a
// transparent bottom border, which they draw in the text colour: it sets the notice apart from the
// form. The buttons' focus ring stands 2px off them (outline-offset): on them, it took the place of
// their border, which forced colours draw in the ring's colour too, so focus barely showed. On a
// page that makes the element a block (form-embed{display:block}, as pages do to custom elements)
// flex:1 does nothing: height:100% then gives the frame the element's height, not 150px. In the
// flex column the frame may shrink below 150px (min-height:0) so that a notice taller than the
// element (a narrow one, a long translation, a reader's text spacing) squeezes the frame instead of
// pushing it out over the page below; Dismiss gives the frame its room back. The frame is a block
// (display:block, 7 B): inline, in an element made a block, it sat on a text line 4px taller than
// the element, which then scrolled (a scrollbar on systems whose scrollbars take room) and, a
// scroll box, was what a modal dialog focused instead of the form. Taller than the whole
// element (text at 200% on a phone), the area scrolls in the element (overflow:auto, 7 B): it ran
// out over the page, where a click on Try again or Dismiss went to the page. The frame is as wide
// as the element (width:100%): at the browser's default 300px it set the element's least width in
// a grid or a flex row, wider than a 320px screen. The rules' order is the one found to gzip
// smallest.
export const styles =
  'button{outline-offset:2px;min-width:24px;min-height:24px;font:inherit}iframe{display:block;border:0;width:100%;height:100%;flex:1;min-height:0}:host([state=framed]) div{display:flex;flex-flow:wrap;flex:0}:host([state=framed]) div:not(:empty){border-bottom:solid #0000}:host{display:flex;flex-flow:column;overflow:auto;height:var(--form-embed-height,600px)}slot{max-width:max-content;flex:1 12em}div:not(:empty){padding:1em}div{gap:1em;flex:1;place-content:center;background:var(--form-embed-status-background);text-align:center;color:var(--form-embed-status-color)}slot,div{display:grid;place-items:center}';
