import { Suspense, type ReactNode } from 'react';
import { ConfirmModal } from './confirm-modal';

/** A confirmation a section asks before an irreversible action (./confirm-modal.tsx). */
export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}

/**
 * The host of a section's dialogs on the manage page (identity, integrations): the open form,
 * loaded on demand, or the confirmation of a deletion or a refusal. The section declares which
 * form or confirmation its open modal is (lib/use-modal.ts says which is open); one at a time.
 */
export function SectionModals({
  form,
  confirmation,
  onClose,
}: {
  form: ReactNode;
  confirmation: Confirmation | null;
  onClose: () => void;
}) {
  return (
    <>
      <Suspense fallback={null}>{form}</Suspense>
      {confirmation ? <ConfirmModal {...confirmation} onClose={onClose} /> : null}
    </>
  );
}
