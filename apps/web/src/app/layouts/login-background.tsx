import { useEffect, useState, type RefObject } from 'react';
import classes from './login-layout.module.css';

/**
 * Whether the visitor asked for no motion or for less data (the reduced-motion and reduced-data
 * media preferences, or the browser's Save-Data setting): then the still stands in for the video.
 */
export function prefersStill(): boolean {
  const media = (query: string) => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return media('(prefers-reduced-motion: reduce)') || media('(prefers-reduced-data: reduce)') || connection?.saveData === true;
}

/**
 * Resolves once the routed page inside `container` shows a control a visitor can use (an input,
 * a button or a link), the page's own resources have loaded, and the browser has a moment.
 */
function whenPageUsable(container: HTMLElement, then: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  const hasControl = () => container.querySelector('input:not([type=hidden]), button, a[href]') !== null;
  const afterLoad = () => {
    const go = () => {
      if (!cancelled) then();
    };
    const onLoad = () => {
      idle =
        typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(go, { timeout: 2000 }) : window.setTimeout(go, 200);
    };
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
  };
  let observer: MutationObserver | undefined;
  if (hasControl()) afterLoad();
  else {
    observer = new MutationObserver(() => {
      if (!hasControl()) return;
      observer?.disconnect();
      afterLoad();
    });
    observer.observe(container, { childList: true, subtree: true });
  }
  return () => {
    cancelled = true;
    observer?.disconnect();
    if (idle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(idle);
  };
}

/**
 * The login page's background: the pasture still first (an image of a few kilobytes, shown at
 * once), then, once the form is usable, the looping muted video over it, faded in when it plays.
 * No video for visitors who prefer no motion or less data.
 */
export function LoginBackground({ still, video, pageRef }: { still: string; video: string; pageRef: RefObject<HTMLElement | null> }) {
  const [play, setPlay] = useState(false);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const page = pageRef.current;
    if (!page || prefersStill()) return;
    return whenPageUsable(page, () => setPlay(true));
  }, [pageRef]);
  return (
    <>
      <img className={classes.media} src={still} alt="" aria-hidden="true" decoding="async" fetchPriority="low" />
      {play && (
        <video
          className={classes.media}
          data-playing={playing || undefined}
          src={video}
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          aria-hidden="true"
          tabIndex={-1}
          onPlaying={() => setPlaying(true)}
        />
      )}
    </>
  );
}
