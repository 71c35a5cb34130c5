/**
 * The login page's default background: a pasture with grazing cows, drawn as SVG. `phase` (0…1)
 * is the moment of an endless loop: clouds drift a little and back, the cows lower and raise
 * their heads, their tails swing and the grass sways; phase 0 is the still (public/media/pasture.svg).
 * `scripts/render-pasture.mjs` writes the still and records the loop as public/media/pasture.webm.
 */
const TAU = Math.PI * 2;
const wave = (phase, cycles, offset = 0) => Math.sin(TAU * (phase * cycles + offset));

function cow({ x, y, scale, flip, phase, offset, coat = '#f6f3ec', patch = '#1f1f22' }) {
  const head = 10 + 16 * (0.5 + 0.5 * wave(phase, 2, offset)); // degrees: grazing down, looking up
  const tail = 8 * wave(phase, 4, offset + 0.3);
  const mirror = flip ? `translate(${x} ${y}) scale(${-scale} ${scale})` : `translate(${x} ${y}) scale(${scale})`;
  return `<g transform="${mirror}">
  <ellipse cx="52" cy="86" rx="58" ry="7" fill="#1c4a20" opacity=".28"/>
  <g fill="${patch}"><rect x="8" y="40" width="11" height="44" rx="4"/><rect x="26" y="42" width="11" height="42" rx="4"/><rect x="70" y="42" width="11" height="42" rx="4"/><rect x="86" y="40" width="11" height="44" rx="4"/></g>
  <g transform="rotate(${tail.toFixed(2)} 2 14)"><path d="M2 14 q-9 24 -5 46" stroke="${patch}" stroke-width="3.2" fill="none" stroke-linecap="round"/><ellipse cx="-3" cy="62" rx="4" ry="6" fill="${patch}"/></g>
  <rect x="0" y="0" width="106" height="56" rx="26" fill="${coat}"/>
  <path d="M18 3 q22 -5 28 12 q-2 18 -24 15 q-14 -9 -4 -27z" fill="${patch}"/>
  <path d="M62 22 q16 -8 26 6 q2 16 -16 16 q-14 -4 -10 -22z" fill="${patch}"/>
  <ellipse cx="64" cy="56" rx="10" ry="6" fill="#eab3ae"/>
  <g transform="rotate(${head.toFixed(2)} 100 12)">
    <rect x="94" y="2" width="18" height="20" rx="8" fill="${coat}"/>
    <g transform="translate(100 4)">
      <ellipse cx="-1" cy="6" rx="8" ry="4" fill="${patch}"/>
      <rect x="0" y="0" width="28" height="42" rx="11" fill="${coat}"/>
      <path d="M2 2 q12 10 24 0 v10 q-12 8 -24 0z" fill="${patch}"/>
      <rect x="2" y="29" width="25" height="16" rx="7" fill="#eab3ae"/>
      <circle cx="21" cy="17" r="2.6" fill="${patch}"/>
    </g>
  </g>
</g>`;
}

function grass(phase, count, y0, height, color, seed) {
  let d = '';
  for (let i = 0; i < count; i++) {
    const x = ((i * 97 + seed * 31) % 1600) + ((i * 13) % 7);
    const h = height * (0.6 + ((i * 37) % 10) / 25);
    const sway = 6 * wave(phase, 2, i / 9 + seed);
    const y = y0 + ((i * 53) % 40);
    d += `M${x} ${y} q${(sway / 2 + 2).toFixed(1)} ${(-h / 2).toFixed(1)} ${sway.toFixed(1)} ${(-h).toFixed(1)} q-1 ${(h / 2).toFixed(1)} 5 ${h.toFixed(1)}z`;
  }
  return `<path d="${d}" fill="${color}"/>`;
}

function cloud(x, y, s) {
  return `<g transform="translate(${x.toFixed(1)} ${y}) scale(${s})" fill="#fff"><ellipse cx="0" cy="20" rx="70" ry="22"/><ellipse cx="-30" cy="8" rx="36" ry="28"/><ellipse cx="22" cy="0" rx="44" ry="36"/><ellipse cx="60" cy="16" rx="32" ry="22"/></g>`;
}

export function pastureSvg(phase = 0) {
  const drift = (cycles, offset, amplitude) => amplitude * wave(phase, cycles, offset);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 1000" preserveAspectRatio="xMidYMid slice" width="1600" height="1000">
<defs>
  <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5d9bd6"/><stop offset=".55" stop-color="#a9d2ee"/><stop offset="1" stop-color="#e8f3dc"/></linearGradient>
  <linearGradient id="far" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8fbf6a"/><stop offset="1" stop-color="#6fa650"/></linearGradient>
  <linearGradient id="mid" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6aa848"/><stop offset="1" stop-color="#4c8d36"/></linearGradient>
  <linearGradient id="near" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4f9a3a"/><stop offset="1" stop-color="#2f6b2a"/></linearGradient>
</defs>
<rect width="1600" height="1000" fill="url(#sky)"/>
<circle cx="1260" cy="170" r="70" fill="#fff4c4" opacity=".9"/>
${cloud(260 + drift(1, 0, 40), 140, 1.2)}${cloud(820 + drift(1, 0.4, 30), 90, 0.9)}${cloud(1420 + drift(1, 0.7, 35), 250, 0.8)}
<path d="M0 560 C200 500 420 520 640 545 S1100 500 1320 520 1600 540 1600 540 V1000 H0z" fill="url(#far)"/>
<g fill="#3f7a34"><circle cx="1180" cy="505" r="34"/><circle cx="1212" cy="512" r="26"/><rect x="1190" y="520" width="8" height="26" fill="#5a4330"/><circle cx="300" cy="520" r="26"/><rect x="296" y="530" width="7" height="24" fill="#5a4330"/></g>
<path d="M0 640 C260 590 520 610 800 630 S1300 600 1600 620 V1000 H0z" fill="url(#mid)"/>
<g stroke="#7a5c3e" stroke-width="6" stroke-linecap="round"><path d="M0 662 L1600 642" stroke-width="4"/><path d="M0 690 L1600 670" stroke-width="4"/>${Array.from({ length: 17 }, (_, i) => `<path d="M${i * 100} ${652 - i * 1.25} v52"/>`).join('')}</g>
${cow({ x: 1010, y: 600, scale: 0.55, flip: true, phase, offset: 0.55 })}
${cow({ x: 380, y: 610, scale: 0.6, flip: false, phase, offset: 0.2 })}
<path d="M0 740 C300 700 600 720 900 735 S1400 715 1600 725 V1000 H0z" fill="url(#near)"/>
${grass(phase, 70, 760, 26, '#3f8a33', 1)}
${cow({ x: 560, y: 690, scale: 1.05, flip: false, phase, offset: 0 })}
${cow({ x: 1180, y: 730, scale: 1.2, flip: true, phase, offset: 0.35 })}
${grass(phase, 90, 900, 34, '#2d6a27', 2)}
</svg>`;
}
