// The page of `spade dashboard` and `spade report`: one renderer for both. Live, it reads the dashboard's JSON API and
// redraws on each server-sent event; in a report, the same data sits inline in <script id="spade-data">. Every figure
// sits in an element with data-metric="<name>" so tests and scripts can read it. Charts are uPlot (window.uPlot).
(function () {
  'use strict';
  const $ = (sel, root) => (root || document).querySelector(sel);
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const fmt = (v, d) => (v === null || v === undefined ? '—' : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(d === undefined ? 3 : d)) : String(v));
  const COLORS = ['#2f6fdf', '#e8710a', '#1e8e3e', '#c0392b', '#8e44ad', '#16a085', '#7f8c8d'];
  const inline = document.getElementById('spade-data');
  const DATA = inline ? JSON.parse(inline.textContent) : null;
  const api = DATA
    ? { env: async (id) => (DATA.envs || {})[id] || null, episode: async (id) => (DATA.episodes || {})[id] || null }
    : {
        overview: () => fetch('api/overview').then((r) => r.json()),
        env: (id) => fetch('api/env/' + encodeURIComponent(id)).then((r) => (r.ok ? r.json() : null)),
        episode: (id) => fetch('api/episode/' + encodeURIComponent(id)).then((r) => (r.ok ? r.json() : null)),
      };

  // ---- charts ---------------------------------------------------------------------------------------------------
  const charts = new Map();
  /** Draws (or updates in place) one chart: lines [{label, x, y}] on a shared x, optional bands [{lo, hi, of}]. */
  function chart(el, title, axis, lines, bands, unit) {
    const withData = lines.filter((l) => l.x.length > 0);
    el.setAttribute('data-points', String(withData.reduce((a, l) => a + l.x.length, 0)));
    if (withData.length === 0) {
      if (!el.firstChild) el.innerHTML = '<div class="empty">' + esc(title) + ': no data yet</div>';
      return;
    }
    const tables = withData.map((l) => [l.x, l.y]);
    const joined = tables.length === 1 ? tables[0] : uPlot.join(tables);
    const key = withData.map((l) => l.label).join('|');
    const old = charts.get(el);
    if (old && old.key === key) {
      old.plot.setData(joined);
      return;
    }
    if (old) old.plot.destroy();
    el.innerHTML = '';
    const series = [{ label: axis }].concat(withData.map((l, i) => ({
      label: l.label, stroke: l.color || COLORS[i % COLORS.length], width: l.band ? 0.5 : 2, spanGaps: true,
      points: { show: l.x.length < 40 }, dash: l.band ? [4, 4] : undefined,
    })));
    // Iterations and updates are counts: no tick between two of them.
    const xAxis = axis === 'iteration' || axis === 'update' ? { label: axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] } : { label: axis };
    const y = unit ? { range: (u, lo, hi) => [Math.min(0, lo), Math.max(unit, hi)] } : {};
    const opts = { title, width: Math.max(300, el.clientWidth - 8), height: 220, scales: { x: { time: false }, y }, series, axes: [xAxis, {}] };
    if (bands && bands.length) opts.bands = bands.map((b) => ({ series: [b.hi + 1, b.lo + 1], fill: b.fill }));
    charts.set(el, { key, plot: new uPlot(opts, joined, el) });
  }

  // ---- run view -------------------------------------------------------------------------------------------------
  const FIGURES = [
    ['iteration', 'iteration', 0], ['iterations-issued', 'issued', 0], ['policy-version', 'policy version', 0], ['staleness-mean', 'staleness mean', 2],
    ['staleness-max', 'staleness max', 0], ['throughput', 'trajectories/s', 2], ['trajectories', 'trajectories', 0], ['proposed', 'proposed', 0],
    ['accepted', 'accepted', 0], ['rejected', 'rejected', 0], ['acceptance', 'acceptance', 2], ['regret', 'regret (feasible)', 3],
    ['regret-all', 'regret (all)', 3], ['designer-reward', 'designer reward', 3], ['return-hint', 'return, hint', 3], ['return-no-hint', 'return, no hint', 3],
    ['novelty', 'novel share', 2], ['learner-updates', 'learner updates', 0], ['loss', 'loss', 4], ['dropped', 'dropped (stale)', 0],
    ['policy-tokens', 'policy tokens', 0], ['members', 'members', 0], ['consumer-lag', 'consumer lag', 0], ['dead-letters', 'dead letters', 0], ['elapsed-sec', 'elapsed (s)', 0],
  ];
  const CHARTS = [
    ['curve-regret', 'Regret per iteration', [['regret', 'feasible'], ['regret-all', 'all evaluated']]],
    ['curve-designer-reward', 'Designer reward per iteration', [['designer-reward', 'mean reward']]],
    ['curve-returns', 'Return with and without the hint', [['return-hint', 'hint'], ['return-no-hint', 'no hint']]],
    ['curve-acceptance', 'Acceptance and novelty', [['acceptance', 'accepted share'], ['novelty', 'novel share']]],
    ['curve-loss', 'Learner loss', [['loss', 'loss'], ['loss-agent', 'agent'], ['loss-designer', 'designer']]],
    ['curve-entropy', 'Entropy (−mean log π of sampled tokens)', [['entropy-agent', 'agent'], ['entropy-designer', 'designer']]],
    ['curve-ratio', 'Off-policy: mean importance ratio, clipped share', [['mean-ratio', 'mean ratio'], ['clip-fraction', 'clip fraction']]],
    ['curve-staleness', 'Staleness of applied trajectories', [['staleness-mean', 'mean']]],
  ];

  // The hosts' profile: CPU seconds by phase, largest first, then what no phase accounts for.
  function renderProfile(p) {
    const el = $('[data-metric=profile-table]');
    if (!p) { el.innerHTML = '<tr><td class="muted">no host has published its profile yet</td></tr>'; return; }
    const pct = (x) => (x * 100).toFixed(1) + '%';
    const rows = Object.entries(p.phases).sort((a, b) => b[1].cpuSec - a[1].cpuSec);
    el.innerHTML = '<tr><th>phase</th><th>cpu s</th><th>share</th><th>tokens</th><th>GFLOP/s of its cpu</th></tr>' +
      rows.map(([n, x]) => '<tr><td>' + esc(n) + '</td><td>' + x.cpuSec.toFixed(1) + '</td><td>' + pct(x.share) + '</td><td>' + x.tokens + '</td><td>' +
        (x.gflopsPerCpuSec === null ? '—' : x.gflopsPerCpuSec.toFixed(1)) + '</td></tr>').join('') +
      '<tr><td>other (bus, actors, GC, onnxruntime pool threads, …)</td><td>' + p.otherSec.toFixed(1) + '</td><td>' + pct(p.cpuSec > 0 ? p.otherSec / p.cpuSec : 0) + '</td><td></td><td>' +
      (p.mainLoopBusy === null || p.mainLoopBusy === undefined ? '' : 'main thread busy ' + pct(p.mainLoopBusy)) + '</td></tr>' +
      '<tr><th>all (' + p.hosts + ' host' + (p.hosts === 1 ? '' : 's') + ')</th><th>' + p.cpuSec.toFixed(1) + '</th><th>100%</th><th></th><th>model ' +
      (p.modelGflopsPerCpuSec === null ? '—' : p.modelGflopsPerCpuSec.toFixed(1)) + '</th></tr>';
  }

  function renderRunShell(root) {
    root.innerHTML =
      '<section><h2>Run</h2><div class="tiles">' +
      FIGURES.map((f) => '<div class="tile"><div class="k">' + esc(f[1]) + '</div><div class="v" data-metric="' + f[0] + '">—</div></div>').join('') +
      '</div></section>' +
      '<section id="cluster"><h2>Cluster</h2><div class="detail"><div><table data-metric="members-table"></table></div><div><table data-metric="consumer-lag-table"></table></div></div></section>' +
      '<section><h2>Curves</h2><div class="charts">' + CHARTS.map((c) => '<div class="chart" data-metric="' + c[0] + '"></div>').join('') +
      '</div><h2 style="margin-top:12px">Rejections by validation stage</h2><table data-metric="rejected-by-stage"></table>' +
      '<h2 style="margin-top:12px">Where the CPU seconds went</h2><table data-metric="profile-table"></table></section>' +
      '<section><h2>Environments</h2><input type="search" placeholder="search id, name, family, stage, document…" data-metric="env-search">' +
      '<div class="scroll"><table data-metric="env-table"></table></div><div id="env-detail"></div></section>';
    $('[data-metric=env-search]', root).addEventListener('input', () => renderEnvTable(lastOverview));
  }

  let lastOverview = null;
  function renderOverview(o) {
    lastOverview = o;
    $('.source').textContent = o.source;
    const live = $('.live');
    live.textContent = o.live ? 'live' : 'finished run';
    live.className = 'live' + (o.live ? '' : ' off');
    for (const [k, , d] of FIGURES) {
      const el = document.querySelector('[data-metric="' + k + '"]');
      if (el) el.textContent = fmt(o.figures[k], d);
    }
    const cl = o.cluster;
    $('#cluster').style.display = cl ? '' : 'none';
    if (cl) {
      $('[data-metric=members-table]').innerHTML = '<tr><th>host</th><th>roles</th><th>in flight</th><th>handled</th><th>failed</th><th>heartbeat age</th></tr>' +
        cl.members.map((m) => '<tr><td>' + esc(m.hostId) + (m.draining ? ' <span class="pill">draining</span>' : '') + '</td><td>' + esc(m.roles.join(', ')) + '</td><td>' + m.inflight + '</td><td>' + m.handled + '</td><td>' + m.failed + '</td><td>' + fmt(m.ageSec, 1) + ' s</td></tr>').join('');
      $('[data-metric=consumer-lag-table]').innerHTML = '<tr><th>stream</th><th>consumer</th><th>lag</th><th>ack pending</th><th>redelivered</th></tr>' +
        cl.consumers.map((c) => '<tr><td>' + esc(c.stream) + '</td><td>' + esc(c.name) + '</td><td>' + c.pending + '</td><td>' + c.ackPending + '</td><td>' + c.redelivered + '</td></tr>').join('');
    }
    for (const [key, title, lines] of CHARTS) {
      const el = document.querySelector('[data-metric="' + key + '"]');
      const ls = lines.map(([name, label]) => ({ label, x: (o.curves[name] || { x: [] }).x, y: (o.curves[name] || { y: [] }).y }));
      const axis = (lines.map(([n]) => o.curves[n]).find((c) => c) || { axis: 'iteration' }).axis;
      chart(el, title, axis, ls);
    }
    const stages = Object.entries(o.rejectedByStage || {}).sort((a, b) => b[1] - a[1]);
    $('[data-metric=rejected-by-stage]').innerHTML = stages.length
      ? '<tr><th>stage</th><th>rejected</th></tr>' + stages.map(([s, n]) => '<tr><td>' + esc(s) + '</td><td>' + n + '</td></tr>').join('')
      : '<tr><td class="muted">no rejection so far</td></tr>';
    renderProfile(o.profile);
    renderEnvTable(o);
  }

  function renderEnvTable(o) {
    if (!o) return;
    const q = ($('[data-metric=env-search]').value || '').toLowerCase();
    const rows = o.envs.filter((r) => !q || [r.envId, r.name, r.family, r.stage, r.doc, r.status].some((v) => v && String(v).toLowerCase().includes(q)));
    const shown = rows.slice(-500).reverse();
    const table = $('[data-metric=env-table]');
    table.setAttribute('data-rows', String(rows.length));
    table.innerHTML = '<tr><th>environment</th><th>it.</th><th>status</th><th>name</th><th>family</th><th>regret</th><th>return hint</th><th>no hint</th><th>designer reward</th><th>novel</th><th>episodes</th></tr>' +
      shown.map((r) => '<tr class="clickable' + (r.envId === selected ? ' selected' : '') + '" data-env="' + esc(r.envId) + '"><td>' + esc(r.envId) + '</td><td>' + r.iteration + '</td><td class="' + r.status + '">' +
        (r.status === 'rejected' ? 'rejected: ' + esc(r.stage) : 'accepted') + '</td><td>' + esc(r.name) + '</td><td>' + esc(r.family) + '</td><td>' + fmt(r.regret) + '</td><td>' + fmt(r.returnHint) + '</td><td>' +
        fmt(r.returnNoHint) + '</td><td>' + fmt(r.designerReward) + '</td><td>' + (r.novel === null ? '—' : r.novel ? 'yes' : 'copy') + '</td><td>' + r.episodes + '</td></tr>').join('');
    for (const tr of table.querySelectorAll('tr[data-env]')) tr.addEventListener('click', () => openEnv(tr.getAttribute('data-env')));
  }

  const KEYWORDS = /^(?:export|default|class|const|let|var|function|return|if|else|for|while|of|in|new|this|true|false|null|undefined|typeof|break|continue|switch|case|throw|try|catch)$/;
  function highlight(code) {
    const re = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\b(\d+(?:\.\d+)?)\b|([A-Za-z_$][\w$]*)/g;
    let out = '', at = 0, m;
    while ((m = re.exec(code))) {
      out += esc(code.slice(at, m.index));
      at = re.lastIndex;
      if (m[1]) out += '<span class="tok-c">' + esc(m[1]) + '</span>';
      else if (m[2]) out += '<span class="tok-s">' + esc(m[2]) + '</span>';
      else if (m[3]) out += '<span class="tok-n">' + m[3] + '</span>';
      else out += KEYWORDS.test(m[4]) ? '<span class="tok-k">' + m[4] + '</span>' : esc(m[4]);
    }
    return out + esc(code.slice(at));
  }

  let selected = null;
  async function openEnv(id) {
    selected = id;
    const d = await api.env(id);
    const box = $('#env-detail');
    if (!d) {
      box.innerHTML = '<p class="muted">' + esc(id) + ': not found</p>';
      return;
    }
    const r = d.row, t = d.text;
    const node = (x, self) => (self ? '<span class="node self">' + esc(x) + '</span>' : '<a class="node" data-open="' + esc(x) + '">' + esc(x) + '</a>');
    const known = new Set((d.parents || []).map((p) => p.envId).concat((d.children || []).map((c) => c.envId)));
    const parentNodes = r.parents.map((p) => '<li>' + (known.has(p) ? node(p) : '<span class="node">' + esc(p) + '</span> <span class="muted">library</span>') + '</li>').join('');
    const lineage = '<div class="lineage" data-metric="env-lineage" data-parents="' + r.parents.length + '" data-children="' + r.children.length + '">' +
      '<div class="muted">parents</div><ul>' + (parentNodes || '<li class="muted">none (written from scratch or a library copy)</li>') + '</ul>' +
      '<ul><li>' + node(r.envId, true) + ' <span class="muted">' + esc(r.name) + '</span><ul>' +
      (r.children.map((c) => '<li>' + node(c) + '</li>').join('') || '<li class="muted">no children yet</li>') + '</ul></li></ul></div>';
    const eps = d.episodes || [];
    box.innerHTML = '<h2 style="margin-top:16px">' + esc(r.envId) + ' <span class="' + r.status + '">' + esc(r.status === 'rejected' ? 'rejected at ' + r.stage : 'accepted') + '</span></h2>' +
      (r.reason ? '<p class="rejected">' + esc(r.reason) + '</p>' : '') +
      (t.description ? '<p>' + esc(t.description) + '</p>' : '') + (t.hint ? '<p class="hint">hint: ' + esc(t.hint) + '</p>' : '') +
      '<div class="detail"><div><pre class="code" data-metric="env-code">' + (t.code ? highlight(t.code) : '<span class="tok-c">// code not in the archive</span>') + '</pre></div><div>' +
      '<h2>Lineage</h2>' + lineage +
      '<h2 style="margin-top:12px">Grounding document</h2><pre class="doc" data-metric="env-document">' + esc(t.document || (r.doc ? 'document ' + r.doc + ' (its text is in the designer prompt on the bus)' : 'none')) + '</pre>' +
      '<h2 style="margin-top:12px">Episodes</h2><table data-metric="env-episodes" data-rows="' + eps.length + '"><tr><th>episode</th><th>hint</th><th>seed</th><th>return</th><th>turns</th></tr>' +
      (eps.map((e) => '<tr class="clickable" data-traj="' + esc(e.trajId) + '"><td>' + esc(e.trajId) + '</td><td>' + (e.hinted ? 'yes' : 'no') + '</td><td>' + e.seed + '</td><td>' + fmt(e.return) + '</td><td>' + e.turns + (e.error ? ' <span class="rejected">' + esc(e.error) + '</span>' : '') + '</td></tr>').join('') ||
        '<tr><td class="muted" colspan="5">no episodes' + (r.status === 'rejected' ? ' (rejected)' : '') + '</td></tr>') + '</table></div></div><div id="trajectory"></div>';
    for (const a of box.querySelectorAll('a[data-open]')) a.addEventListener('click', () => openEnv(a.getAttribute('data-open')));
    for (const tr of box.querySelectorAll('tr[data-traj]')) tr.addEventListener('click', () => openEpisode(tr.getAttribute('data-traj')));
    renderEnvTable(lastOverview);
  }

  async function openEpisode(id) {
    const e = await api.episode(id);
    const box = $('#trajectory');
    if (!e) {
      box.innerHTML = '<p class="muted">episode ' + esc(id) + ' is not available</p>';
      return;
    }
    box.innerHTML = '<h2 style="margin-top:16px">Episode ' + esc(e.trajId) + (e.hinted ? ' <span class="pill">hinted</span>' : '') + '</h2>' +
      '<p>seed ' + e.seed + ' · return ' + fmt(e.return) + ' · ' + (e.terminated ? 'terminated' : 'truncated') + ' · advantage trained with <b data-metric="trajectory-advantage">' + fmt(e.advantage) + '</b>' + (e.error ? ' · <span class="rejected">' + esc(e.error) + '</span>' : '') + '</p>' +
      '<table data-metric="trajectory" data-turns="' + e.turns.length + '"><tr><th>turn</th><th>observation</th><th>action</th><th>reward</th><th>policy version</th><th>tokens</th></tr>' +
      e.turns.map((t) => '<tr><td>' + t.turn + '</td><td class="turn-obs">' + (t.hint ? '<div class="hint">hint: ' + esc(t.hint) + '</div>' : '') + esc(t.observation) + '</td><td class="turn-act">' + esc(t.action) + '</td><td>' + fmt(t.reward) + '</td><td>' +
        (t.versions ? (t.versions[0] === t.versions[1] ? 'v' + t.versions[0] : 'v' + t.versions[0] + '–v' + t.versions[1]) : '—') + '</td><td>' + t.tokens + '</td></tr>').join('') + '</table>';
  }

  // ---- experiment view ------------------------------------------------------------------------------------------
  function ci(x) {
    return x ? '[' + fmt(x[0]) + ', ' + fmt(x[1]) + ']' : '';
  }
  function renderExperiment(root, r) {
    const arms = Object.entries(r.arms);
    const diff = r.heldout.spadeMinusFixed;
    $('.source').textContent = DATA.source;
    $('.live').textContent = 'experiment';
    $('.live').className = 'live off';
    root.innerHTML = '<section><h2>Arms at equal policy-token compute (' + esc(r.experiment.preset) + ', budget ' + r.experiment.budgetTokens + ' tokens)</h2>' +
      '<table class="arms" data-metric="arm-table"><tr><th>arm</th><th>seeds</th><th>policy tokens</th><th>wall (min)</th><th>held-out no hint</th><th>held-out hint</th><th>regret (feasible)</th><th>acceptance</th><th>novel</th></tr>' +
      '<tr><td>base checkpoint</td><td>—</td><td>0</td><td>—</td><td>' + fmt(r.base.meanReturnNoHint) + ' ' + ci(r.base.ci95NoHint) + '</td><td>' + fmt(r.base.meanReturnHint) + ' ' + ci(r.base.ci95Hint) + '</td><td>—</td><td>—</td><td>—</td></tr>' +
      arms.map(([name, a]) => '<tr data-arm="' + esc(name) + '"><td>' + esc(name) + '</td><td>' + a.seeds + '</td><td>' + Math.round(a.tokens.mean) + '</td><td>' + fmt(a.wallSec.mean / 60, 1) + '</td><td>' +
        fmt(a.heldout.meanReturnNoHint) + ' ' + ci(a.heldout.ci95NoHint) + '</td><td>' + fmt(a.heldout.meanReturnHint) + ' ' + ci(a.heldout.ci95Hint) + '</td><td>' + fmt(a.regret.feasibleMean) + '</td><td>' + fmt(a.acceptance, 2) + '</td><td>' + fmt(a.novelFraction, 2) + '</td></tr>').join('') +
      '</table><p data-metric="spade-minus-fixed">' + (diff ? '<b>SPADE − fixed environments</b>, held-out no-hint return, seed-paired (' + diff.pairs + ' pairs): ' + fmt(diff.mean) + ' ' + ci(diff.ci95) : 'no SPADE / fixed-environment pair') + '</p>' +
      '<p class="muted" data-metric="compute-agreement">Compute: spread ' + fmt(r.accounting.spread * 100, 1) + '% ' + (r.accounting.within5Percent ? '(within 5%)' : '(NOT within 5%)') + '</p></section>' +
      '<section><h2>Learning curves: held-out no-hint return at budget fractions (band: 95% interval)</h2><div class="charts" id="arm-curves"></div></section>' +
      '<section><h2>Per iteration, per run</h2><div class="charts" id="iteration-curves"></div></section>';
    // One chart, every arm: its mean curve and a band of each point's two-level bootstrap 95% interval (averaged over
    // the arm's seeds when it has several).
    const el = document.createElement('div');
    el.className = 'chart';
    el.setAttribute('data-metric', 'curve-heldout');
    $('#arm-curves').appendChild(el);
    const lines = [], bands = [];
    arms.forEach(([name, a], i) => {
      const fr = a.curve.map((p) => p.fraction);
      const bound = (f, j) => {
        const pts = a.runs.map((run) => run.curve.find((p) => p.fraction === f)).filter((p) => p && p.ci95NoHint);
        return pts.length ? pts.reduce((s, p) => s + p.ci95NoHint[j], 0) / pts.length : null;
      };
      const color = COLORS[i % COLORS.length];
      lines.push({ label: name, x: fr, y: a.curve.map((p) => p.meanReturnNoHint), color });
      lines.push({ label: name + ' 95% low', x: fr, y: fr.map((f) => bound(f, 0)), band: true, color });
      lines.push({ label: name + ' 95% high', x: fr, y: fr.map((f) => bound(f, 1)), band: true, color });
      bands.push({ lo: 3 * i + 1, hi: 3 * i + 2, fill: color + '26' });
    });
    chart(el, 'held-out return (no hint) against budget fraction', 'budget fraction', lines, bands, 0.1);
    const box2 = $('#iteration-curves');
    for (const [key, label] of [['meanDesignerReward', 'designer reward'], ['meanRegretAll', 'regret (all evaluated)'], ['acceptance', 'acceptance']]) {
      const el = document.createElement('div');
      el.className = 'chart';
      el.setAttribute('data-metric', 'curve-iterations-' + key);
      box2.appendChild(el);
      const lines = [];
      for (const [name, a] of arms) for (const run of a.runs) lines.push({ label: name + ' s' + run.seed, x: run.iterations.map((i) => i.index), y: run.iterations.map((i) => (typeof i[key] === 'number' ? i[key] : null)) });
      chart(el, label, 'iteration', lines);
    }
  }

  // ---- start ----------------------------------------------------------------------------------------------------
  const root = $('main');
  if (DATA && DATA.kind === 'experiment') return renderExperiment(root, DATA.results);
  renderRunShell(root);
  if (DATA) return renderOverview(DATA.overview);
  api.overview().then(renderOverview);
  const events = new EventSource('events');
  events.addEventListener('overview', (ev) => renderOverview(JSON.parse(ev.data)));
  events.onerror = () => { $('.live').textContent = 'reconnecting…'; };
})();
