#!/usr/bin/env node
/**
 * Renders the login page's default background from `pasture-scene.mjs`: the still
 * (public/media/pasture.svg, a few kilobytes, shown first) and an 8-second seamless loop
 * (public/media/pasture.webm, VP9), recorded in Chromium from a canvas with MediaRecorder.
 * Usage: node apps/web/scripts/render-pasture.mjs  (CHROMIUM_PATH, default /usr/bin/chromium)
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pastureSvg } from './pasture-scene.mjs';

const media = (name) => fileURLToPath(new URL(`../public/media/${name}`, import.meta.url));
const SECONDS = 8;
const FPS = 25;
const WIDTH = 960;
const HEIGHT = 600;

writeFileSync(media('pasture.svg'), `${pastureSvg(0).replace(/\n\s*/g, '\n')}\n`);

const frames = Array.from({ length: SECONDS * FPS }, (_, i) => pastureSvg(i / (SECONDS * FPS)));
const { chromium } = createRequire(fileURLToPath(new URL('../../../e2e/package.json', import.meta.url)))('playwright-core');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage();
  const base64 = await page.evaluate(
    async ({ frames, fps, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d');
      const images = await Promise.all(
        frames.map(
          (svg) =>
            new Promise((resolve, reject) => {
              const img = new Image();
              img.onload = () => resolve(img);
              img.onerror = reject;
              img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
            }),
        ),
      );
      const stream = canvas.captureStream(0);
      const track = stream.getVideoTracks()[0];
      const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp9', videoBitsPerSecond: 350_000 });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      const start = performance.now();
      for (let i = 0; i < images.length; i++) {
        const due = start + (i * 1000) / fps;
        while (performance.now() < due) await new Promise((r) => setTimeout(r, 2));
        // the scene is 1600×1000; the video keeps its centre at 960×600
        ctx.drawImage(images[i], 0, 0, 1600, 1000, 0, 0, width, height);
        track.requestFrame();
      }
      await new Promise((r) => setTimeout(r, 1000 / fps));
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    },
    { frames, fps: FPS, width: WIDTH, height: HEIGHT },
  );
  writeFileSync(media('pasture.webm'), Buffer.from(base64, 'base64'));
} finally {
  await browser.close();
}
console.log(
  `pasture.svg ${readFileSync(media('pasture.svg')).length} bytes, pasture.webm ${readFileSync(media('pasture.webm')).length} bytes`,
);
