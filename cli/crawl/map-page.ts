/**
 * The app map: one static HTML page (no script or style from elsewhere, nothing fetched) with
 * the crawl's JSON inside it. Every screen is a node with its screenshot, laid out in columns by
 * the length of its shortest path; every transition is an edge; clicking a screen shows the path
 * that reaches it (as spec code), what identifies it, its accessibility findings; a crash shows
 * its path and log. `show-crawl` serves it; it also opens from disk.
 */
import type { CrawlResult } from './model.js';

/** JSON safe inside a <script> element: no `</script>`, no `<!--`. */
const embed = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, ' ');

const STYLE = `
body{font:14px system-ui,sans-serif;margin:0;display:flex;height:100vh;color:#202124}
#map{flex:1;overflow:auto;position:relative;background:#f6f7f9}
#side{width:420px;overflow:auto;overflow-wrap:anywhere;border-left:1px solid #ddd;padding:12px 16px;background:#fff}
header{padding:10px 16px;border-bottom:1px solid #ddd;background:#fff;position:sticky;top:0;left:0;z-index:2}
.screen{position:absolute;width:150px;border:2px solid #c5cad3;border-radius:8px;background:#fff;cursor:pointer;padding:4px;box-sizing:border-box}
.screen.selected{border-color:#1a73e8;box-shadow:0 0 0 3px #1a73e855}
.screen.crash{border-color:#d93025;background:#fce8e6}
.screen img{width:100%;display:block;border-radius:4px}
.screen .t{font-size:11px;margin-top:3px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.kind{font-size:10px;color:#5f6368}
svg{position:absolute;left:0;top:0;pointer-events:none}
pre{background:#f1f3f4;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap}
.finding{font-size:12px;margin:4px 0}
`;

const SCRIPT = `
const data = JSON.parse(document.getElementById('crawl-data').textContent);
const W = 150, H = 330, GX = 80, GY = 30, TOP = 60;
const map = document.getElementById('map'), side = document.getElementById('side');
const nodes = [...data.screens.map(s => ({ id: s.id, depth: s.path.actions.length + (s.path.entry.kind === 'launch' && !s.path.entry.activity ? 0 : 1), s })),
  ...data.crashes.map(c => ({ id: c.id, depth: c.path.actions.length + 1, c }))];
const cols = new Map();
for (const n of nodes) { const col = cols.get(n.depth) ?? []; col.push(n); cols.set(n.depth, col); }
const pos = new Map();
for (const [d, col] of cols) col.forEach((n, i) => pos.set(n.id, { x: 16 + d * (W + GX), y: TOP + i * (H + GY) }));
const width = Math.max(...[...pos.values()].map(p => p.x)) + W + 40, height = Math.max(...[...pos.values()].map(p => p.y)) + H + 40;
const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
svg.setAttribute('width', width); svg.setAttribute('height', height);
for (const t of data.transitions) {
  const a = pos.get(t.from), b = pos.get(t.to); if (!a || !b || t.from === t.to) continue;
  const l = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  l.setAttribute('x1', a.x + W); l.setAttribute('y1', a.y + 40); l.setAttribute('x2', b.x); l.setAttribute('y2', b.y + 40);
  l.setAttribute('stroke', t.to.startsWith('crash') ? '#d93025' : '#9aa0a6'); l.setAttribute('stroke-width', '1.5');
  l.setAttribute('data-edge', t.from + '>' + t.to);
  svg.appendChild(l);
}
map.appendChild(svg);
const el = (tag, attrs, text) => { const e = document.createElement(tag); Object.assign(e, attrs); if (text !== undefined) e.textContent = text; return e; };
const code = (p) => {
  const q = (s) => "'" + s.replace(/\\\\/g, '\\\\\\\\').replace(/'/g, "\\\\'") + "'";
  const v = (x) => typeof x === 'string' ? q(x) : 'secret(process.env.' + x.secret + ")";
  const out = [];
  if (p.entry.kind === 'launch' && p.entry.activity) out.push('await app.launch({ activity: ' + q(p.entry.activity) + ' });');
  if (p.entry.kind === 'deepLink') out.push('await app.intent({ data: ' + q(p.entry.uri) + ' });');
  for (const a of p.actions) {
    if (a.kind === 'back') out.push("await app.press('back');");
    else if (a.kind === 'fill') out.push('await ' + a.code + '.fill(' + v(a.value) + ');');
    else if (a.kind === 'submit') { for (const f of a.fields) out.push('await ' + f.code + '.fill(' + v(f.value) + ');'); for (const c of a.checks) out.push('await ' + c.code + '.tap();'); out.push('await ' + a.code + '.tap();'); }
    else if (a.kind === 'swipe') out.push('await ' + a.code + ".swipe('up');");
    else out.push('await ' + a.code + '.' + a.kind + '();');
  }
  return out.join('\\n') || '// the first screen of a fresh instance';
};
function show(n) {
  document.querySelectorAll('.screen.selected').forEach(e => e.classList.remove('selected'));
  document.querySelector('[data-id="' + n.id + '"]').classList.add('selected');
  side.replaceChildren();
  if (n.s) {
    const s = n.s;
    side.append(el('h2', {}, s.id + ' ' + s.title), el('div', { className: 'kind' }, s.kind + ' · ' + (s.activity ?? '') + (s.stable ? ' · visual baseline candidate' : '')));
    if (s.screenshot) side.append(el('img', { src: s.screenshot, style: 'width:200px;border:1px solid #ddd;margin:8px 0' }));
    side.append(el('h3', {}, 'Path'), el('pre', { id: 'path' }, code(s.path)));
    side.append(el('h3', {}, 'Identified by'), el('pre', {}, s.identify.map(i => i.code).join('\\n') || '(its activity)'));
    side.append(el('h3', {}, 'Accessibility (' + s.accessibility.length + ')'));
    for (const f of s.accessibility) side.append(el('div', { className: 'finding' }, f.severity + ' ' + f.rule + ' ' + f.selector + ': ' + f.message));
  } else {
    const c = n.c;
    side.append(el('h2', {}, c.id + ' ' + c.reason.split('\\n')[0]), el('div', { className: 'kind' }, c.reproduced ? 'reproduced from a fresh instance' : 'not reproduced'));
    side.append(el('h3', {}, 'Path'), el('pre', { id: 'path' }, code(c.path)), el('h3', {}, 'Stack'), el('pre', {}, c.reason), el('h3', {}, 'Log'), el('pre', {}, c.log.slice(-40).join('\\n')));
  }
}
for (const n of nodes) {
  const p = pos.get(n.id);
  const box = el('div', { className: 'screen' + (n.c ? ' crash' : '') });
  box.dataset.id = n.id; box.style.left = p.x + 'px'; box.style.top = p.y + 'px';
  if (n.s?.screenshot) box.append(el('img', { src: n.s.screenshot, alt: n.s.title }));
  box.append(el('div', { className: 't' }, n.s ? n.s.id + ' ' + n.s.title : n.c.id + ' ' + n.c.reason.split('\\n')[0]));
  if (n.s) box.append(el('div', { className: 'kind' }, n.s.kind));
  box.addEventListener('click', () => show(n));
  map.appendChild(box);
}
document.getElementById('summary').textContent = data.app.package + ': ' + data.screens.length + ' screens, ' + data.activitiesReached.length + '/' + (data.app.activities.length || data.activitiesReached.length) + ' activities, ' + data.transitions.length + ' transitions, ' + data.crashes.length + ' crash(es) in ' + Math.round(data.elapsedMs / 1000) + ' s with ' + data.settings.instances + ' instance(s)';
if (nodes[0]) show(nodes[0]);
`;

export function mapPage(result: CrawlResult): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>App map: ${result.app.package.replace(/[<&"]/g, '')}</title><style>${STYLE}</style></head>
<body><div id="map"><header><b>App map</b> <span id="summary"></span></header></div><div id="side"></div>
<script type="application/json" id="crawl-data">${embed(result)}</script>
<script>${SCRIPT}</script></body></html>
`;
}
