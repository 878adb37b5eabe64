// The line under the console's controls that says what the last control did. Each later action in
// the panel clears it first (another control, a form, a portal user, Sign out or in, a language):
// 'Done: remint' would otherwise stay under a form or a user it never reminted.
import { byId } from './dom.js';

const line = byId<HTMLParagraphElement>('control-result');
/** Counts the actions begun in the panel, so that an answer arriving late writes nothing. */
let actions = 0;

/** What starts an action in the panel: a button pressed, a choice picked, a form submitted. */
const actionTargets: Record<string, string> = { click: 'button', change: 'select', submit: 'form' };

/** Clears the line as each action in `panel` begins, before the action's own listener runs. */
export function clearResultOnActions(panel: HTMLElement): void {
  for (const [type, selector] of Object.entries(actionTargets)) {
    panel.addEventListener(
      type,
      (event) => {
        if (!(event.target as Element).closest(selector)) return;
        actions += 1;
        line.textContent = '';
      },
      { capture: true },
    );
  }
}

/** Returns what writes the line, unless another action has begun by the time it is called. */
export function resultSayer(): (text: string) => void {
  const action = actions;
  return (text) => {
    if (action === actions) line.textContent = text;
  };
}
