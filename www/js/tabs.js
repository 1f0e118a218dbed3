// The two views as ARIA tabs: click or arrow keys switch; the choice is kept in the URL
// hash (#check for the checker), so a link or a reload opens the same view.
import { $ } from './dom.js';

const tabs = () => [$('#tab-teach'), $('#tab-check')];

function selectTab(tab, focus = false) {
  for (const t of tabs()) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  }
  if (focus) tab.focus();
  history.replaceState(null, '', tab.id === 'tab-check' ? '#check' : '#');
}

export function mount() {
  const all = tabs();
  all.forEach((t, i) => {
    t.addEventListener('click', () => selectTab(t));
    t.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        e.preventDefault();
        selectTab(all[(i + (e.key === 'ArrowRight' ? 1 : all.length - 1)) % all.length], true);
      }
    });
  });
  if (location.hash === '#check') selectTab($('#tab-check'));
}
