// The nestwright inspector page: plain browser JavaScript, served by `nestwright codegen` and
// `nestwright show-trace` (no bundler, no framework, nothing fetched from elsewhere).
'use strict';

const token = new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);
const state = {
  screen: null,
  hash: null,
  picked: null,
  hover: null,
  matches: [],
  format: 'spec',
  code: { spec: '', skill: '' },
};

async function api(route, body) {
  const res = await fetch(
    `/api/${route}${route === 'screen' && state.hash ? `?since=${encodeURIComponent(state.hash)}` : ''}`,
    {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    },
  );
  const data = await res.json().catch(() => ({ code: 'INTERNAL', message: `HTTP ${res.status}` }));
  if (!res.ok) {
    const err = new Error(data.message || `HTTP ${res.status}`);
    err.code = data.code;
    throw err;
  }
  return data;
}

function banner(text) {
  $('banner').hidden = !text;
  $('banner-text').textContent = text || '';
}

function fail(e) {
  if (e.code === 'DEVICE_DISCONNECTED') banner(`Device disconnected: ${e.message}`);
  else alert(`${e.code || 'Error'}: ${e.message}`);
}

// ---- live mode -----------------------------------------------------------------------------

const describe = (n) =>
  [
    n.id,
    n.role,
    n.text ? JSON.stringify(n.text) : '',
    n.desc ? `desc=${JSON.stringify(n.desc)}` : '',
    n.res_id ? `id=${n.res_id.replace(/^.*:id\//, '')}` : '',
  ]
    .filter(Boolean)
    .join(' ');

function scale() {
  const img = $('shot');
  return state.screen && img.clientWidth ? img.clientWidth / state.screen.screen.width : 1;
}

function boxes() {
  const overlay = $('overlay');
  overlay.innerHTML = '';
  if (!state.screen) return;
  const k = scale();
  const draw = (id, cls) => {
    const n = state.screen.nodes.find((x) => x.id === id);
    if (!n) return;
    const [l, t, r, b] = n.bounds;
    const d = document.createElement('div');
    d.className = `box ${cls}`;
    Object.assign(d.style, {
      left: `${l * k}px`,
      top: `${t * k}px`,
      width: `${(r - l) * k}px`,
      height: `${(b - t) * k}px`,
    });
    d.dataset.node = id;
    overlay.appendChild(d);
  };
  for (const id of state.matches) draw(id, 'match');
  if (state.hover) draw(state.hover, 'hover');
  if (state.picked) draw(state.picked, 'picked');
  for (const li of $('tree').children) {
    li.classList.toggle('hover', li.dataset.node === state.hover);
    li.classList.toggle('picked', li.dataset.node === state.picked);
  }
}

/** The node a point on the picture falls on: the smallest one that holds it. */
function nodeAt(x, y) {
  let best = null;
  for (const n of state.screen?.nodes || []) {
    const [l, t, r, b] = n.bounds;
    if (x < l || x >= r || y < t || y >= b) continue;
    const area = (r - l) * (b - t);
    if (!best || area < best.area || (area === best.area && (n.clickable || n.editable))) best = { n, area };
  }
  return best && best.n;
}

function renderTree() {
  const tree = $('tree');
  tree.innerHTML = '';
  for (const n of state.screen.nodes) {
    const li = document.createElement('li');
    li.dataset.node = n.id;
    li.style.paddingLeft = `${4 + 10 * Math.min(n.depth || 0, 10)}px`;
    li.textContent = describe(n);
    li.onmouseenter = () => ((state.hover = n.id), boxes());
    li.onmouseleave = () => ((state.hover = null), boxes());
    li.onclick = () => pick(n.id);
    tree.appendChild(li);
  }
}

async function refresh() {
  try {
    const s = await api('screen');
    banner('');
    if (s.unchanged) return;
    state.screen = s;
    state.hash = s.hash;
    $('where').textContent = `${s.package || '(no app)'} ${s.activity || ''}`;
    if (s.png) {
      $('shot').src = s.png;
      $('shot').hidden = false; // shown once there is a picture: no broken image before the first screen
    }
    if (state.picked && !s.nodes.some((n) => n.id === state.picked)) state.picked = null;
    renderTree();
    boxes();
    if ($('locator-box').value) tryLocator();
  } catch (e) {
    if (e.code === 'DEVICE_DISCONNECTED') banner(`Device disconnected: ${e.message}`);
  }
}

async function pick(id) {
  state.picked = id;
  boxes();
  const n = state.screen.nodes.find((x) => x.id === id);
  const fields = [
    'id',
    'role',
    'text',
    'desc',
    'res_id',
    'class',
    'bounds',
    'clickable',
    'editable',
    'enabled',
    'checked',
    'focused',
    'hint',
  ];
  $('picked').innerHTML = '';
  const table = document.createElement('table');
  for (const f of fields) {
    if (n[f] === undefined || n[f] === null) continue;
    const tr = table.insertRow();
    tr.insertCell().textContent = f;
    tr.insertCell().textContent = Array.isArray(n[f]) ? n[f].join(', ') : String(n[f]);
  }
  $('picked').appendChild(table);
  $('assert-visible').disabled = false;
  $('assert-text').disabled = !n.text;
  try {
    const { suggestions } = await api('locators', { node_id: id });
    const ol = $('locators');
    ol.innerHTML = '';
    for (const s of suggestions) {
      const li = document.createElement('li');
      li.innerHTML = `<span class="${s.strictSafe ? 'safe' : 'unsafe'}">${s.strictSafe ? 'strict-safe' : `${s.matches} matches`}</span> <code></code> <button>Copy</button>`;
      li.querySelector('code').textContent = s.code;
      li.dataset.selector = s.selector;
      li.querySelector('button').onclick = () => navigator.clipboard?.writeText(s.code).catch(() => {});
      ol.appendChild(li);
    }
  } catch (e) {
    fail(e);
  }
}

async function tryLocator() {
  const selector = $('locator-box').value.trim();
  if (!selector) {
    state.matches = [];
    $('verdict').textContent = '';
    return boxes();
  }
  try {
    const r = await api('try', { selector });
    state.matches = r.node_ids;
    $('verdict').textContent =
      r.verdict === 'unique'
        ? 'unique: strict-safe'
        : r.verdict === 'none'
          ? 'no match'
          : `strict mode violation: ${r.count} matches`;
    $('verdict').className = r.verdict === 'unique' ? 'safe' : 'unsafe';
  } catch (e) {
    state.matches = [];
    $('verdict').textContent = e.message;
    $('verdict').className = 'err';
  }
  boxes();
}

async function showCode(code) {
  state.code = code || (await api('code'));
  $('code').textContent = state.format === 'skill' ? state.code.skill : state.code.spec;
}

async function record(body) {
  try {
    await api(body.kind ? 'assert' : 'act', body);
    await showCode();
    await refresh();
  } catch (e) {
    fail(e);
  }
}

function tool() {
  return document.querySelector('input[name=tool]:checked').value;
}

function startLive() {
  $('live').hidden = false;
  $('mode').textContent = 'codegen';
  $('screen').addEventListener('mousemove', (ev) => {
    const n = state.screen && nodeAt(ev.offsetX / scale(), ev.offsetY / scale());
    if ((n && n.id) !== state.hover) {
      state.hover = n ? n.id : null;
      boxes();
    }
  });
  $('screen').addEventListener('click', (ev) => {
    const n = state.screen && nodeAt(ev.offsetX / scale(), ev.offsetY / scale());
    if (!n) return;
    const t = tool();
    if (t === 'pick') return pick(n.id);
    if (t === 'fill') return record({ action: 'fill', node_id: n.id, value: $('fill-value').value });
    record({ action: t, node_id: n.id });
  });
  $('press-back').onclick = () => record({ action: 'press', value: 'back' });
  $('assert-visible').onclick = () => state.picked && record({ kind: 'visible', node_id: state.picked });
  $('assert-text').onclick = () => state.picked && record({ kind: 'text', node_id: state.picked });
  $('locator-box').addEventListener('input', () => tryLocator());
  $('undo').onclick = async () => showCode(await api('undo', {}));
  for (const r of document.querySelectorAll('input[name=format]')) {
    r.onchange = () => {
      state.format = r.value;
      $('save-path').value = r.value === 'skill' ? 'skills/recorded.yaml' : 'specs/recorded.spec.ts';
      showCode(state.code);
    };
  }
  $('save').onclick = async () => {
    try {
      const r = await api('save', { format: state.format, path: $('save-path').value });
      $('saved').textContent = `saved ${r.path}`;
    } catch (e) {
      $('saved').textContent = `${e.code}: ${e.message}`;
    }
  };
  $('reconnect').onclick = async () => {
    try {
      await api('reconnect', {});
      state.hash = null;
      banner('');
      await refresh();
    } catch (e) {
      banner(`Device disconnected: ${e.message}`);
    }
  };
  refresh().then(() => showCode());
  setInterval(refresh, 700);
}

// ---- trace mode ----------------------------------------------------------------------------

function startTrace(trace) {
  $('trace').hidden = false;
  $('mode').textContent = 'trace viewer';
  $('trace-title').textContent = `${trace.title} — ${trace.status}`;
  const ol = $('steps');
  const show = (i) => {
    for (const li of ol.children) li.classList.toggle('sel', Number(li.dataset.index) === i);
    const s = trace.steps[i];
    const el = $('step');
    el.innerHTML = '';
    const h = document.createElement('h2');
    h.textContent = s.title;
    el.appendChild(h);
    for (const [k, v] of [
      ['status', s.status],
      ['selector', s.selector],
      ['node', s.node],
      ['duration', s.durationMs === null ? null : `${s.durationMs} ms`],
    ]) {
      if (v === null || v === undefined) continue;
      const p = document.createElement('div');
      p.textContent = `${k}: ${v}`;
      el.appendChild(p);
    }
    if (s.error) {
      const e = document.createElement('div');
      e.className = 'err';
      e.textContent = s.error;
      el.appendChild(e);
    }
    if (s.comparison) {
      // A visual comparison: expected, actual and diff side by side, as Playwright's report shows them.
      const box = document.createElement('div');
      box.className = 'comparison';
      box.dataset.testid = 'comparison';
      const p = document.createElement('div');
      p.textContent = `comparison: ${s.comparison.summary}`;
      box.appendChild(p);
      const row = document.createElement('div');
      row.className = 'pictures';
      for (const pic of s.comparison.pictures) {
        const fig = document.createElement('figure');
        const img = document.createElement('img');
        img.src = pic.png;
        img.alt = pic.kind;
        const cap = document.createElement('figcaption');
        cap.textContent = pic.kind;
        fig.append(img, cap);
        row.appendChild(fig);
      }
      box.appendChild(row);
      el.appendChild(box);
    }
    for (const shot of s.screenshots) {
      const img = document.createElement('img');
      img.src = shot.png;
      img.alt = shot.name;
      img.title = shot.name;
      el.appendChild(img);
    }
    for (const o of s.observations) {
      const pre = document.createElement('pre');
      pre.textContent = `${o.name}\n${o.json.slice(0, 20000)}`;
      el.appendChild(pre);
    }
  };
  trace.steps.forEach((s, i) => {
    const li = document.createElement('li');
    li.dataset.index = String(i);
    li.className = s.status;
    li.style.paddingLeft = `${4 + 14 * s.depth}px`;
    li.textContent = `${s.status === 'passed' ? '✓' : s.status === 'skipped' ? '–' : '✘'} ${s.title}`;
    li.onclick = () => show(i);
    ol.appendChild(li);
  });
  document.addEventListener('keydown', (ev) => {
    const cur = [...ol.children].findIndex((li) => li.classList.contains('sel'));
    if (ev.key === 'ArrowDown' && cur < trace.steps.length - 1) show(cur + 1);
    if (ev.key === 'ArrowUp' && cur > 0) show(cur - 1);
  });
  const firstFailed = trace.steps.findIndex((s) => s.status === 'failed' || s.status === 'broken');
  if (trace.steps.length) show(firstFailed >= 0 ? firstFailed : 0);
}

api('info')
  .then(async (info) => (info.mode === 'trace' ? startTrace(await api('trace')) : startLive()))
  .catch((e) => banner(`${e.code || 'Error'}: ${e.message}`));
