// The goal card of a first visit (src/ui/first_run.h): "Follow 'quick' through 10 steps: press →", once per browser
// (remembered in localStorage). Never for a shared link (the address holds a state), with ?intro=0 in the address,
// or in an automated browser (navigator.webdriver: tests and screenshot services are not first-time learners).
// ?intro=1 shows it there too (still once per browser).
const addressHadState = /^#v\d/.test(location.hash);  // read when the bundle runs, before the page rewrites it
const INTRO_KEY = 'attnlab.introSeen';

function introFlag() {
  const m = /[?&]intro=([^&#]*)/.exec(location.search);
  return m ? m[1] : null;
}

export function maybeShowGoalCard() {
  const flag = introFlag();
  if (flag === '0' || flag === 'off' || flag === 'false') return;
  const asked = flag === '1' || flag === 'on' || flag === 'true';
  if (!asked && (addressHadState || navigator.webdriver)) return;
  try {
    if (window.localStorage.getItem(INTRO_KEY) === '1') return;
    window.localStorage.setItem(INTRO_KEY, '1');
  } catch (e) { /* storage blocked (file://, privacy mode): show it, it cannot be remembered */ }
  try { window.attnlab.setState({ goal_card: true }); } catch (e) { console.warn('AttnLab: ' + e); }
}
