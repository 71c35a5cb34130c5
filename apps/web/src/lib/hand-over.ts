/**
 * A pre-rendered page is typeable before its scripts arrive (docs/decisions/021-pre-rendered-public-pages.md).
 * Until the application has hydrated the page's form, a small inline script (HAND_OVER_SCRIPT, in
 * the page's head, allowed by its hash in the Content-Security-Policy) notes what is typed into
 * each field (a box ticked, an option picked) and holds back a submission (Enter, or the button).
 * Once the form is React's, `handOverPrerenderedForm` gives it both: each typed value as if typed
 * again (so that React and react-hook-form hold it, whatever hydration did to the field), then the
 * submission. A form whose submission needs data loaded after hydration (the invitation pages')
 * carries `data-hand-over="own"`: it is handed over when it has hydrated, and its held submission
 * goes on when the form calls `submitHeldSubmission`.
 */
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface HandOverState {
  /** still noting: the application has not taken over */
  live: boolean;
  /** the last value typed into each field (a checkbox's or radio button's: whether it is checked) */
  typed: Map<Field, string | boolean>;
  /** the form submitted, and the button it was submitted with */
  submitted: [HTMLFormElement, HTMLElement | null] | null;
}

declare global {
  interface Window {
    __ppHandOver?: HandOverState;
  }
}

/** The inline script: one listener for input and one for submit, capturing, on the document. */
export const HAND_OVER_SCRIPT = [
  '(function(){',
  'var s=window.__ppHandOver={live:true,typed:new Map(),submitted:null};',
  "document.addEventListener('input',function(e){var t=e.target;",
  'if(s.live&&(t instanceof HTMLInputElement||t instanceof HTMLTextAreaElement||t instanceof HTMLSelectElement))',
  "s.typed.set(t,t.type=='checkbox'||t.type=='radio'?t.checked:t.value)},true);",
  "document.addEventListener('submit',function(e){if(!s.live)return;",
  'e.preventDefault();e.stopImmediatePropagation();s.submitted=[e.target,e.submitter||null]},true);',
  '})();',
].join('');

/** A field's value set so that React sees a change: its own record of the value says empty, the field says `value`. */
function typeAgain(field: Field, value: string | boolean): void {
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    // React hears a box through its click: set the other way (React records it), then clicked
    if (typeof value !== 'boolean' || (field.type === 'radio' && !value)) return;
    field.checked = !value;
    field.click();
    return;
  }
  if (typeof value !== 'string') return;
  if (field instanceof HTMLSelectElement) {
    // React hears a select through its change event, without a record of the value
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'value');
  if (!descriptor?.set) return;
  // through the element: React's value tracker records '' (after hydration it wraps `value` on the element)
  field.value = '';
  // past the tracker: the field shows the value, React's record still says ''
  descriptor.set.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** A submission held back until its form (`data-hand-over="own"`) says it may go on. */
let held: [HTMLFormElement, HTMLElement | null] | null = null;

/**
 * Call once the pre-rendered page's form has hydrated: app/routed-view.tsx for every page, which
 * leaves a form marked `data-hand-over="own"` to call it itself (`{ own: true }`, keeping the
 * submission until `submitHeldSubmission`). Does nothing on a page that was not pre-rendered, and
 * from the first hand-over on.
 */
export function handOverPrerenderedForm(options: { own?: boolean } = {}): void {
  const state = window.__ppHandOver;
  if (!state?.live) return;
  // such a form may not have hydrated yet (its part of the page still waiting): it hands over itself
  if (!options.own && document.querySelector('form[data-hand-over="own"]')) return;
  state.live = false;
  for (const [field, value] of state.typed) if (field.isConnected && !field.disabled) typeAgain(field, value);
  held = state.submitted;
  state.typed.clear();
  state.submitted = null;
  if (!options.own) submitHeldSubmission();
}

/** The held submission (if any) goes on, with the same button, if its form is still on the page. */
export function submitHeldSubmission(): void {
  const submitted = held;
  held = null;
  if (!submitted) return;
  const [form, submitter] = submitted;
  // after React has rendered the typed values (their input events' updates)
  window.setTimeout(() => {
    if (!form.isConnected) return;
    const button = submitter instanceof HTMLButtonElement && submitter.form === form && submitter.type === 'submit' ? submitter : undefined;
    form.requestSubmit(button);
  }, 0);
}
