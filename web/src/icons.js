// Small inline SVG icons for the controls (no icon font, no external file).

import { s } from './dom.js';

const PATHS = {
  first: 'M5 4h2v16H5zM20 4v16L9 12z',
  // A step is a chevron, so that Next is told from Play (a solid triangle) by its shape.
  prev: 'M15.4 4.6 14 3.2 5.2 12l8.8 8.8 1.4-1.4L8 12z',
  next: 'M8.6 4.6 10 3.2l8.8 8.8-8.8 8.8-1.4-1.4L16 12z',
  last: 'M17 4h2v16h-2zM4 4v16l11-8z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
};

export function icon(name) {
  return s('svg', { class: 'icon', viewBox: '0 0 24 24', width: '14', height: '14', 'aria-hidden': 'true', focusable: 'false' }, s('path', { d: PATHS[name], fill: 'currentColor' }));
}
