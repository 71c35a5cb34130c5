/**
 * A pre-rendered page is typeable before its scripts arrive (docs/decisions/021-pre-rendered-public-pages.md).
 * Until the application has hydrated the page's form, a small inline script (HAND_OVER_SCRIPT, in
 * the page's head, allowed by its hash in the Content-Security-Policy) notes what is typed into
 * each field and holds back a submission (Enter, or the button). Once the form is React's,
 * `handOverPrerenderedForm` gives it both: each typed value as if typed again (so that React and
 * react-hook-form hold it, whatever hydration did to the field), then the submission.
 */
interface HandOverState {
  /** still noting: the application has not taken over */
  live: boolean;
  /** the last value typed into each field */
  typed: Map<HTMLInputElement | HTMLTextAreaElement, string>;
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
  'if(s.live&&(t instanceof HTMLInputElement||t instanceof HTMLTextAreaElement))s.typed.set(t,t.value)},true);',
  "document.addEventListener('submit',function(e){if(!s.live)return;",
  'e.preventDefault();e.stopImmediatePropagation();s.submitted=[e.target,e.submitter||null]},true);',
  '})();',
].join('');

/** Set a field's value so that React sees a change: its own record of the value says empty, the field says `value`. */
function typeAgain(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'value');
  if (!descriptor?.set) return;
  // through the element: React's value tracker records '' (after hydration it wraps `value` on the element)
  field.value = '';
  // past the tracker: the field shows the value, React's record still says ''
  descriptor.set.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Call once the pre-rendered page's form has hydrated (app/routed-view.tsx). Does nothing on a
 * page that was not pre-rendered, and from the second call on.
 */
export function handOverPrerenderedForm(): void {
  const state = window.__ppHandOver;
  if (!state?.live) return;
  state.live = false;
  for (const [field, value] of state.typed) if (field.isConnected && !field.disabled) typeAgain(field, value);
  const submitted = state.submitted;
  state.typed.clear();
  state.submitted = null;
  if (!submitted) return;
  const [form, submitter] = submitted;
  // after React has rendered the typed values (their input events' updates)
  window.setTimeout(() => {
    if (!form.isConnected) return;
    const button = submitter instanceof HTMLButtonElement && submitter.form === form && submitter.type === 'submit' ? submitter : undefined;
    form.requestSubmit(button);
  }, 0);
}
