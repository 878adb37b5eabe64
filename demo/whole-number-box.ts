import { byId, sayInvalid } from './dom.js';

/**
 * A control's box of whole numbers (`#<id>`, in its form `#<id>-form`, with `#<id>-error` and
 * `#<id>-hint`): on submit `send` gets the number, or nothing is sent and the box is marked
 * invalid, says why, and takes focus back. Only digits, so that `1e3`, `1.5`, `-0` or an empty
 * box is refused rather than sent as another number. Returns `check`, which marks it again.
 */
export function wholeNumberBox(
  id: string,
  { min, max, unit }: { min: number; max: number; unit: string },
  send: (value: number) => unknown,
) {
  const input = byId<HTMLInputElement>(id);
  const error = byId<HTMLParagraphElement>(`${id}-error`);
  function check(): number | undefined {
    const text = input.value.trim();
    const value = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
    const problem =
      value >= min && value <= max
        ? ''
        : `${text ? `“${text}” is not` : 'Type'} a whole number of ${unit} from ${min} to ${max}, in digits only. Nothing was sent.`;
    sayInvalid(input, error, problem, `${id}-hint`);
    return problem ? undefined : value;
  }
  byId(`${id}-form`).addEventListener('submit', (event) => {
    event.preventDefault();
    const value = check();
    // A refused value sends nothing: the line below the controls, cleared as the button was
    // pressed, stays empty rather than tell of the last action as if of this one.
    if (value !== undefined) return void send(value);
    input.focus();
  });
  // Once marked invalid, the box says as soon as what is typed is right again.
  input.addEventListener('input', () => {
    if (input.hasAttribute('aria-invalid')) check();
  });
  return check;
}
