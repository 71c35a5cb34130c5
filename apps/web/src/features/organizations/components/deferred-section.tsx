import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Stack, Title } from '@mantine/core';
import { useLocation } from 'react-router';

/**
 * How far below (or above) the viewport a section starts loading: a third of a screen of a laptop,
 * so that while the page is scrolled the code and the answers arrive before the section shows.
 */
const NEAR = '300px 0px';

/** The fixed header's height and a little air: a section reached through its anchor is not hidden under it. */
const BELOW_HEADER = 76;

/**
 * A section of the manage page whose code loads after the page's first view: when it comes near
 * the viewport or the browser is first idle, or at once when the address points at it (`#anchor`)
 * or `now` says so
 * (docs/decisions/022-login-and-manage-bundles.md, "Fourth round"). Until then it stands as its
 * heading (the section's own, so that headings and landmarks can still be found by keyboard and
 * screen reader) in about the section's height, so that the page does not jump when it arrives.
 * Reached through its anchor, it is scrolled to once it is there.
 */
export function DeferredSection({
  anchor,
  title,
  minHeight,
  now = false,
  children,
}: {
  /** the section's anchor (`/manage-organization/{id}#anchor`) */
  anchor: string;
  /** the section's heading, as the section shows it */
  title: string;
  /** about the section's height before it has loaded anything of its own */
  minHeight: number;
  /** load at once (the section has something to show the moment the page opens) */
  now?: boolean;
  /** the section, lazily loaded */
  children: ReactNode;
}) {
  const { hash } = useLocation();
  const linked = hash === `#${anchor}`;
  // once wanted, the section stays (the address may lose its anchor or `now` turn false later)
  const [wanted, setWanted] = useState(linked || now);
  if ((linked || now) && !wanted) setWanted(true);
  const standIn = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (wanted) return;
    const element = standIn.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setWanted(true);
      },
      { rootMargin: NEAR },
    );
    observer.observe(element);
    // and in any case once the page has been drawn and the browser is idle: the section's content
    // is there to be found without scrolling (find in page, a screen reader's reading order, a
    // script that looks for a control of the section)
    const idle = whenIdle(() => setWanted(true));
    return () => {
      observer.disconnect();
      idle();
    };
  }, [wanted]);

  const placeholder = <StandIn title={title} minHeight={minHeight} />;
  return (
    <div id={anchor} ref={standIn} style={{ scrollMarginTop: BELOW_HEADER }}>
      {wanted ? (
        <Suspense fallback={placeholder}>
          {children}
          {linked ? <ScrollHere anchor={anchor} /> : null}
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}

/** Run `then` when the browser is idle (at the latest after two seconds); returns how to cancel it. */
function whenIdle(then: () => void): () => void {
  // Safari has no requestIdleCallback
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(then, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(then, 200);
  return () => clearTimeout(handle);
}

function StandIn({ title, minHeight }: { title: string; minHeight: number }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" mih={minHeight} data-deferred-section>
      <Title order={2} size="h3" id={headingId}>
        {title}
      </Title>
    </Stack>
  );
}

/** Mounted with the loaded section: the address points at it, so it is brought into view. */
function ScrollHere({ anchor }: { anchor: string }) {
  useEffect(() => {
    document.getElementById(anchor)?.scrollIntoView({ block: 'start' });
  }, [anchor]);
  return null;
}
