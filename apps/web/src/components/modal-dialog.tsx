import type { ReactNode } from 'react';
import { Modal, ScrollArea } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Mantine's Modal as this feature shows it: above the overlay (modal layer 1100, overlay 1000;
 * docs/product.md, "Limits and constants"), centred, open while mounted. Loaded with the first
 * dialog (./modal-frame.tsx), so the Modal and its scroll lock stay off the page until then.
 */
export function ModalDialog({
  title,
  onClose,
  children,
  size,
  closeOnClickOutside,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  size: string;
  closeOnClickOutside: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size={size}
      closeOnClickOutside={closeOnClickOutside}
      zIndex={1100}
      overlayProps={{ zIndex: 1000 }}
      closeButtonProps={{ 'aria-label': t('org_close') }}
      centered
    >
      {children}
    </Modal>
  );
}

/** A scrolling region inside a dialog (a long list of names): loaded with the dialog, not with the page. */
export const ModalScrollArea = ScrollArea.Autosize;
