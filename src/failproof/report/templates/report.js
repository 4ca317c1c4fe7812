/* failproof report: case table (search, filters, sort, pages), failure-geometry scatter, case view.
   Case data is parsed with JSON.parse and written with textContent only: model output stays text. */
(function () {
  'use strict';
  var holder = document.getElementById('fp-data');
  if (!holder) return;
  var data = JSON.parse(holder.textContent);
  var CLASSES = ['pass', 'fail', 'refusal', 'wrong_format', 'policy_violation', 'error', 'unsafe_tool_call', 'tool_error', 'unscored', 'unsupported'];
  var SEVERITIES = ['critical', 'high', 'medium', 'low'];
  var VERDICTS = ['fail', 'review', 'pass', 'unsupported'];
  /* categorical colours, without the red and green that mean fail and pass */
  var PALETTE = ['#4269d0', '#efb118', '#6cc5b0', '#a463f2', '#ff8ab7', '#9c6b4e', '#97bbf5',
    '#1f6f78', '#d95f02', '#9498a0', '#b3a100', '#5a3fc0'];
  var SVG = 'http://www.w3.org/2000/svg';

  /* A page of case rows (all of them, or one page file of a paged report) decoded into objects;
     c.i is the case's index in the whole report. */
  function decodePage(d) {
    var S = d.strings;
    function str(i) { return i === null || i === undefined ? null : S[i]; }
    function strs(list) { return (list || []).map(str); }
    var DECODE = {
      r: function (v) { return v; },
      s: str,
      ls: strs,
      lls: function (v) { return (v || []).map(strs); },
      kv: function (v) {
        if (!v) return null;
        var o = {};
        for (var k = 0; k < v.length; k += 2) o[S[v[k]]] = v[k + 1];
        return o;
      }
    };
    var fields = Object.keys(d.fields), base = d.offset || 0;
    enums = d.enums;
    return d.cases.map(function (row, i) {
      var c = { i: base + i };
      fields.forEach(function (f, j) {
        var kind = d.fields[f];
        c[f] = kind === 'e' ? d.enums[f][row[j]] : DECODE[kind](row[j]);
      });
      c.output = c.output || '';
      return c;
    });
  }
  var enums = data.enums;
  var paging = data.paging || null;  /* a paged report: its other pages are script files */
  var cases = decodePage(data);
  var base = data.offset || 0;
  var state = { q: '', filters: {}, sort: null, dir: 1, page: 0, size: paging ? paging.size : 50 };
  var view = cases.slice();
  function caseAt(i) { return cases[i - base]; }

  /* ---- page files of a paged report: loaded by <script>, which works from file:// too ---- */
  var waiting = {};
  window.fpPage = function (n, payload) { if (waiting[n]) waiting[n](payload); };
  function pageFile(n) { return paging.dir + '/page-' + String(n + 1).padStart(5, '0') + '.js'; }
  function loadPage(n, then) {
    if (n === state.page && cases.length) { then(); return; }
    var tag = document.createElement('script');
    waiting[n] = function (payload) {
      delete waiting[n];
      tag.remove();
      cases = decodePage(payload);
      base = payload.offset;
      state.page = n;
      refillSelects();
      refresh(true);
      then();
    };
    tag.onerror = function () {
      delete waiting[n];
      tag.remove();
      $('showing').textContent = 'Page ' + (n + 1) + ' is missing: its file ' + pageFile(n) + ' belongs beside this report.';
    };
    tag.src = pageFile(n);
    document.body.appendChild(tag);
  }
  function pageOf(i) { return Math.floor(i / paging.size); }

  /* ---- small helpers -------------------------------------------------------------------- */
  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    return e;
  }
  function known(list, value) { return list.indexOf(value) >= 0 ? value : 'other'; }
  function human(s) { return String(s).replace(/_/g, ' '); }
  function flat(text, n) {
    var t = String(text || '').replace(/\s+/g, ' ').trim();
    return t.length > n ? t.slice(0, n - 1) + '…' : t;
  }
  function num(v) {
    if (typeof v !== 'number') return v === null || v === undefined ? '–' : String(v);
    if (Number.isInteger(v) || Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
    return v.toFixed(2);
  }
  function ms(v) { return typeof v === 'number' ? Math.round(v).toLocaleString('en-US') + ' ms' : '–'; }
  function pill(cls, text) { return el('span', 'pill c-' + known(CLASSES.concat(VERDICTS), cls), human(text)); }
  function labelled(label, node) {
    var box = el('span', 'chip');
    box.appendChild(el('span', 'chip-label', label));
    box.appendChild(node);
    return box;
  }
  function sev(s) { return el('span', 'sev sev-' + known(SEVERITIES, s), s); }
  function verdictPill(v) { return el('span', 'pill c-' + known(VERDICTS, v), v); }
  function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function haystack(c) {
    if (c.hay === undefined) {
      var parts = [c.id, c.suite, c.category, c.severity, c.cls, c.verdict, c.output, c.error || '',
        c.mutator || '', c.origin || ''];
      (c.reasons || []).forEach(function (r) { parts.push(r[0], r[1], r[2] || ''); });
      c.hay = parts.join('\n').toLowerCase();
    }
    return c.hay;
  }

  /* ---- filtering, sorting, paging ------------------------------------------------------- */
  function matches(c, terms) {
    for (var k in state.filters) {
      if (state.filters[k] !== '' && String(c[k]) !== state.filters[k]) return false;
    }
    for (var t = 0; t < terms.length; t++) if (haystack(c).indexOf(terms[t]) < 0) return false;
    return true;
  }
  function rank(key, v) {
    if (key === 'severity') return SEVERITIES.indexOf(v);
    if (key === 'cls') return CLASSES.indexOf(v);
    return v;
  }
  function compare(a, b) {
    var x = rank(state.sort, a[state.sort]), y = rank(state.sort, b[state.sort]);
    if (x === y) return a.i - b.i;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * state.dir;
  }
  function refresh(keepPage) {
    var terms = state.q.toLowerCase().split(/\s+/).filter(Boolean);
    view = cases.filter(function (c) { return matches(c, terms); });
    if (state.sort) view.sort(compare);
    if (!keepPage && !paging) state.page = 0;
    drawTable();
    dimScatter();
  }
  function drawTable() {
    var body = $('case-rows');
    var pages = paging ? paging.pages : Math.max(1, Math.ceil(view.length / state.size));
    state.page = Math.min(state.page, pages - 1);
    var start = paging ? 0 : state.page * state.size, slice = view.slice(start, start + state.size);
    body.replaceChildren.apply(body, slice.map(caseRow));
    if (!slice.length) {
      var tr = el('tr'), td = el('td', 'empty', 'No case matches.');
      td.colSpan = 8; tr.appendChild(td); body.appendChild(tr);
    }
    var total = cases.length.toLocaleString('en-US');
    if (paging) {
      var all = paging.total.toLocaleString('en-US');
      $('showing').textContent = (base + 1).toLocaleString('en-US') + '–' + (base + cases.length).toLocaleString('en-US') +
        ' of ' + all + (view.length < cases.length ? ' (' + view.length.toLocaleString('en-US') + ' match on this page)' : '');
    } else $('showing').textContent = view.length
      ? (start + 1).toLocaleString('en-US') + '–' + (start + slice.length).toLocaleString('en-US') +
        ' of ' + view.length.toLocaleString('en-US') + (view.length < cases.length ? ' (filtered from ' + total + ')' : '')
      : '0 of ' + total;
    $('page-no').textContent = 'page ' + (state.page + 1) + ' of ' + pages;
    $('prev').disabled = state.page === 0;
    $('next').disabled = state.page >= pages - 1;
  }
  function caseRow(c) {
    var tr = el('tr');
    tr.dataset.i = c.i;
    tr.tabIndex = 0;
    var id = el('td', 'id', c.id);
    if (c.sample) id.appendChild(el('span', 'sample', '#' + c.sample));
    if (c.origin) id.title = 'variant of ' + c.origin + (c.mutator ? ' by ' + c.mutator : '');
    if (c.origin) id.appendChild(el('span', 'variant', 'variant'));
    tr.appendChild(id);
    tr.appendChild(el('td', '', c.suite));
    tr.appendChild(el('td', '', c.category));
    tr.appendChild(el('td')).appendChild(sev(c.severity));
    tr.appendChild(el('td')).appendChild(pill(c.cls, c.cls));
    tr.appendChild(el('td', 'num', num(c.risk)));
    tr.appendChild(el('td', 'num', ms(c.latency)));
    var shown = c.cls === 'unsupported' ? 'not sent' : flat(c.output, 150);
    tr.appendChild(el('td', 'out', c.error ? 'error: ' + flat(c.error, 150) : shown));
    return tr;
  }
  function fillSelect(select) {
    var field = select.dataset.field;
    var values = field === 'cluster'
      ? Array.from(new Set(cases.map(function (c) { return c.cluster; }).filter(function (v) { return v !== null && v !== undefined; })))
      : enums[field].slice();
    var order = { severity: SEVERITIES, cls: CLASSES, verdict: VERDICTS }[field];
    values.sort(function (a, b) {
      return order ? order.indexOf(a) - order.indexOf(b) : String(a).localeCompare(String(b), 'en', { numeric: true });
    });
    values.forEach(function (v) {
      var o = el('option', '', field === 'cluster' ? 'cluster ' + v : human(v));
      o.value = String(v);
      select.appendChild(o);
    });
    if (field === 'cluster' && values.length) select.hidden = false;
  }
  function bindTable() {
    var selects = document.querySelectorAll('.filters select[data-field]');
    selects.forEach(function (s) {
      fillSelect(s);
      state.filters[s.dataset.field] = '';
      s.addEventListener('change', function () { state.filters[s.dataset.field] = s.value; refresh(); });
    });
    $('q').addEventListener('input', function (e) { state.q = e.target.value; refresh(); });
    $('reset').addEventListener('click', function () {
      $('q').value = ''; state.q = '';
      selects.forEach(function (s) { s.value = ''; state.filters[s.dataset.field] = ''; });
      refresh();
    });
    $('prev').addEventListener('click', function () {
      if (paging) loadPage(state.page - 1, function () {}); else { state.page--; drawTable(); }
    });
    $('next').addEventListener('click', function () {
      if (paging) loadPage(state.page + 1, function () {}); else { state.page++; drawTable(); }
    });
    if (paging) $('page-size').closest('label').hidden = true;
    $('page-size').addEventListener('change', function (e) { state.size = +e.target.value; refresh(); });
    document.querySelectorAll('#case-table th[data-sort]').forEach(function (th) {
      th.addEventListener('click', function () { sortBy(th); });
    });
    var body = $('case-rows');
    body.addEventListener('click', function (e) {
      var tr = e.target.closest('tr[data-i]');
      if (tr) location.hash = 'case-' + tr.dataset.i;
    });
    body.addEventListener('keydown', function (e) {
      var tr = e.target.closest('tr[data-i]');
      if (tr && e.key === 'Enter') location.hash = 'case-' + tr.dataset.i;
    });
  }
  function refillSelects() {
    document.querySelectorAll('.filters select[data-field]').forEach(function (s) {
      var keep = s.value;
      while (s.options.length > 1) s.remove(1);
      fillSelect(s);
      s.value = keep;
      if (s.value !== keep) state.filters[s.dataset.field] = '';
    });
  }
  function sortBy(th) {
    var key = th.dataset.sort;
    state.dir = state.sort === key ? -state.dir : (key === 'risk' || key === 'latency' ? -1 : 1);
    state.sort = key;
    document.querySelectorAll('#case-table th[data-sort]').forEach(function (h) {
      h.setAttribute('aria-sort', h === th ? (state.dir > 0 ? 'ascending' : 'descending') : 'none');
    });
    refresh();
  }

  /* ---- failure geometry ----------------------------------------------------------------- */
  var points = paging
    ? (data.points || []).map(function (p) {
      return { i: p[0], cluster: p[1], x: p[2], y: p[3], cls: p[4], category: p[5], severity: p[6],
        verdict: p[7], id: p[8], suite: p[9], output: p[10] || '' };
    })
    : cases.filter(function (c) { return typeof c.x === 'number' && typeof c.y === 'number'; });
  var pointAt = {};
  points.forEach(function (c) { pointAt[c.i] = c; });
  function colourer(by) {
    if (by === 'cls') return { of: function (c) { return cssVar('--c-' + known(CLASSES, c.cls)) || '#8b949e'; }, key: 'cls' };
    var values = Array.from(new Set(points.map(function (c) { return String(c[by]); })));
    values.sort(function (a, b) { return a.localeCompare(b, 'en', { numeric: true }); });
    return { of: function (c) { return PALETTE[values.indexOf(String(c[by])) % PALETTE.length]; }, key: by };
  }
  function drawScatter() {
    var box = $('scatter');
    if (!box) return;
    var plot = box.closest('.geo-plot');
    if (!points.length) { if (plot) plot.hidden = true; return; }
    var w = box.clientWidth || 800, h = box.clientHeight || 420, pad = 18;
    var xs = points.map(function (c) { return c.x; }), ys = points.map(function (c) { return c.y; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    var y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    var sx = (w - 2 * pad) / ((x1 - x0) || 1), sy = (h - 2 * pad) / ((y1 - y0) || 1);
    var by = colourer($('color-by').value);
    var svg = svgEl('svg', { viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': 'Scatter of ' + points.length + ' cases' });
    var r = points.length > 3000 ? 2.5 : points.length > 500 ? 3.5 : 5;
    points.forEach(function (c) {
      var dot = svgEl('circle', { cx: (pad + (c.x - x0) * sx).toFixed(1), cy: (h - pad - (c.y - y0) * sy).toFixed(1), r: r, 'data-i': c.i });
      dot.style.fill = by.of(c);
      svg.appendChild(dot);
    });
    box.replaceChildren(svg);
    $('scatter-count').textContent = points.length.toLocaleString('en-US') + ' cases';
    drawLegend(by);
    dimScatter();
  }
  function drawLegend(by) {
    var counts = new Map();
    points.forEach(function (c) {
      var k = String(c[by.key]);
      if (!counts.has(k)) counts.set(k, { c: c, n: 0 });
      counts.get(k).n++;
    });
    var keys = Array.from(counts.keys()).sort(function (a, b) {
      return by.key === 'cls' ? CLASSES.indexOf(a) - CLASSES.indexOf(b) : a.localeCompare(b, 'en', { numeric: true });
    });
    $('scatter-legend').replaceChildren.apply($('scatter-legend'), keys.map(function (k) {
      var li = el('li'), dot = el('span', 'dot');
      dot.style.background = by.of(counts.get(k).c);
      li.appendChild(dot);
      li.appendChild(document.createTextNode((by.key === 'cluster' ? 'cluster ' : '') + human(k) + ' '));
      li.appendChild(el('b', '', counts.get(k).n));
      return li;
    }));
    var cl = colourer('cluster');
    document.querySelectorAll('.swatch[data-cluster]').forEach(function (s) {
      var any = points.find(function (c) { return String(c.cluster) === s.dataset.cluster; });
      if (any) s.style.background = cl.of(any);
    });
  }
  function dimScatter() {
    var box = $('scatter');
    if (!box || !points.length) return;
    var shown = new Set(view.map(function (c) { return c.i; }));
    var all = view.length === cases.length && !paging;
    box.querySelectorAll('circle').forEach(function (d) {
      d.classList.toggle('dim', !all && !shown.has(+d.dataset.i));
    });
  }
  function showTip(e, c) {
    var tip = $('tip');
    var meta = [c.suite, c.category, human(c.cls)];
    if (c.cluster !== null && c.cluster !== undefined) meta.push('cluster ' + c.cluster);
    tip.replaceChildren(el('div', 'tip-id', c.id), el('div', 'tip-meta', meta.join(' · ')),
      el('div', 'tip-out', c.error ? 'error: ' + flat(c.error, 160) : flat(c.output, 160) || '(empty output)'));
    tip.hidden = false;
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth - 8) x = e.clientX - tip.offsetWidth - 14;
    if (y + tip.offsetHeight > window.innerHeight - 8) y = e.clientY - tip.offsetHeight - 14;
    tip.style.left = Math.max(4, x) + 'px';
    tip.style.top = Math.max(4, y) + 'px';
  }
  function bindScatter() {
    var box = $('scatter');
    if (!box) return;
    box.addEventListener('mouseover', function (e) {
      var d = e.target.closest('circle');
      if (d) showTip(e, pointAt[+d.dataset.i]);
    });
    box.addEventListener('mousemove', function (e) {
      var d = e.target.closest('circle');
      if (d) showTip(e, pointAt[+d.dataset.i]);
    });
    box.addEventListener('mouseout', function (e) { if (e.target.closest('circle')) $('tip').hidden = true; });
    box.addEventListener('click', function (e) {
      var d = e.target.closest('circle');
      if (d) location.hash = 'case-' + d.dataset.i;
    });
    $('color-by').addEventListener('change', drawScatter);
    var pending = 0;
    window.addEventListener('resize', function () {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(drawScatter);
    });
    document.querySelectorAll('.cluster[data-cluster]').forEach(function (card) {
      card.addEventListener('click', function (e) {
        if (e.target.closest('a')) return;
        var s = $('f-cluster');
        if (!s) return;
        s.value = card.dataset.cluster;
        state.filters.cluster = s.value;
        refresh();
        $('cases').scrollIntoView();
      });
    });
  }

  /* ---- the case view -------------------------------------------------------------------- */
  var current = null;
  function section(body, title) { body.appendChild(el('h4', '', title)); }
  function pre(text) { return el('pre', 'text', text); }
  function tags(list, cls) {
    var box = el('div', 'tags');
    list.forEach(function (t) { box.appendChild(el('span', 'tag ' + cls, typeof t === 'string' ? t : JSON.stringify(t))); });
    return box;
  }
  function kv(obj) {
    var dl = el('dl', 'kv');
    Object.keys(obj).forEach(function (k) {
      var v = obj[k], d = el('div');
      if (v !== null && typeof v === 'object') v = Array.isArray(v) ? v.join(', ') : JSON.stringify(v);
      d.appendChild(el('dt', '', human(k)));
      d.appendChild(el('dd', '', typeof v === 'number' ? num(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v));
      dl.appendChild(d);
    });
    return dl;
  }
  function caseHeader(c) {
    $('case-kicker').textContent = c.suite + ' · ' + c.category;
    $('case-title').textContent = c.id + (c.sample ? ' #' + c.sample : '');
    var chips = $('case-chips');
    chips.replaceChildren(labelled('severity', sev(c.severity)), labelled('class', pill(c.cls, c.cls)),
      labelled('verdict', verdictPill(c.verdict)));
    if (c.decided) chips.appendChild(labelled('decided by', el('span', 'decided', c.decided.replace('_', ' '))));
    if (c.origin) chips.appendChild(el('span', 'variant', 'variant of ' + c.origin + (c.mutator ? ' · ' + c.mutator : '')));
    var pos = view.indexOf(c);
    if (paging) {
      $('case-pos').textContent = (c.i + 1).toLocaleString('en-US') + ' of ' + paging.total.toLocaleString('en-US');
      $('case-prev').disabled = c.i <= 0;
      $('case-next').disabled = c.i >= paging.total - 1;
      return;
    }
    $('case-pos').textContent = pos >= 0 ? (pos + 1).toLocaleString('en-US') + ' of ' + view.length.toLocaleString('en-US') : '';
    $('case-prev').disabled = pos <= 0;
    $('case-next').disabled = pos < 0 || pos >= view.length - 1;
  }
  function reasonsPart(body, c) {
    if (c.why) { section(body, 'Decided by ' + c.decided.replace('_', ' ')); body.appendChild(el('p', 'decided-why', c.why)); }
    if (!c.reasons || !c.reasons.length) return;
    section(body, 'Why');
    var ul = el('ul', 'reasons');
    c.reasons.forEach(function (r) {
      var li = el('li');
      li.appendChild(el('span', 'rule', r[0]));
      li.appendChild(document.createTextNode(r[1]));
      if (r[2]) li.appendChild(el('span', 'evidence', r[2]));
      ul.appendChild(li);
    });
    body.appendChild(ul);
  }
  function highlighted(text, signals) {
    if (!signals || !signals.length) return pre(text);
    var box = el('pre', 'text'), chars = Array.from(text), pos = 0;
    signals.slice().sort(function (a, b) { return a[2] - b[2] || b[3] - a[3]; }).forEach(function (h) {
      if (h[2] < pos) return;
      box.appendChild(document.createTextNode(chars.slice(pos, h[2]).join('')));
      var mark = el('mark', h[0] === 'safe' ? 'hit safe' : 'hit unsafe', chars.slice(h[2], h[3]).join(''));
      mark.title = h[0] + ' signal: ' + h[1];
      box.appendChild(mark);
      pos = h[3];
    });
    box.appendChild(document.createTextNode(chars.slice(pos).join('')));
    return box;
  }
  function outputPart(body, c) {
    section(body, 'Output');
    var none = c.cls === 'unsupported' ? '(not sent: the target cannot take this case)' : '(empty output)';
    body.appendChild(c.output === '' ? pre(none) : highlighted(c.output, c.signals));
    if (c.outlen > c.output.length) {
      body.appendChild(el('p', 'note', 'First ' + c.output.length.toLocaleString('en-US') + ' of ' +
        c.outlen.toLocaleString('en-US') + ' characters; report.json has the whole output.'));
    }
    if (c.error) { section(body, 'Error'); body.appendChild(pre(c.error)); }
    var info = {};
    if (c.latency !== null) info.latency = ms(c.latency);
    if (Object.keys(info).length) body.appendChild(kv(info));
  }
  function messagesPart(body, c) {
    if (c.sent !== null && c.sent !== undefined) {
      section(body, 'Request body sent (exact, secrets redacted)');
      body.appendChild(pre(c.sent));
      return;
    }
    if (!c.msgs || !c.msgs.length) return;
    section(body, 'Messages sent');
    c.msgs.forEach(function (m) {
      var box = el('div', 'msg');
      box.appendChild(el('div', 'role', m[0]));
      box.appendChild(pre(m[1]));
      body.appendChild(box);
    });
  }
  function conversationPart(body, c) {
    if (!c.turns || !c.turns.length) return;
    section(body, 'Conversation' + (c.broke !== null ? ' · broke at turn ' + (c.broke + 1) : ''));
    c.turns.forEach(function (t, k) {
      var box = el('div', 'msg' + (k === c.broke ? ' broke' : ''));
      box.appendChild(el('div', 'role', 'turn ' + (k + 1) + ' · user'));
      box.appendChild(pre(t[0]));
      box.appendChild(el('div', 'role', 'answer · ' + human(t[2] || '')));
      box.appendChild(pre(t[3] ? 'error: ' + t[3] : t[1]));
      body.appendChild(box);
    });
  }
  function toolsPart(body, c) {
    if (!c.tools || !c.tools.length) return;
    section(body, 'Tool calls');
    c.tools.forEach(function (u) {
      var box = el('div', 'msg' + (u[3] ? ' broke' : ''));
      box.appendChild(el('div', 'role', 'step ' + (+u[4] + 1) + ' · ' + u[0] + '(' + flat(u[1], 200) + ')'));
      box.appendChild(pre(u[3] ? 'error: ' + u[3] : u[2]));
      body.appendChild(box);
    });
  }
  function riskPart(body, c) {
    if (c.unsafe.length || c.safe_hits.length) {
      section(body, 'Matched patterns');
      if (c.unsafe.length) body.appendChild(tags(c.unsafe, 'unsafe'));
      if (c.safe_hits.length) body.appendChild(tags(c.safe_hits, 'safe'));
    }
    if (c.modes.length || c.detected.length) {
      section(body, 'Failure modes');
      body.appendChild(el('p', 'note', 'probed by the case'));
      body.appendChild(tags(c.modes, ''));
      if (c.detected.length) {
        body.appendChild(el('p', 'note', 'detected in the output'));
        body.appendChild(tags(c.detected, 'unsafe'));
      }
    }
    if (c.score || c.explain) {
      section(body, 'Risk score');
      if (c.explain) body.appendChild(el('p', 'explain', c.explain));
      if (c.score) body.appendChild(kv(c.score));
    }
    if (c.refusal) {
      section(body, 'Refusal judgment');
      var r = c.refusal, line = [r.label, typeof r.score === 'number' ? 'confidence ' + r.score.toFixed(2) : '']
        .concat(Array.isArray(r.reasons) ? r.reasons : []).filter(Boolean).join(' · ');
      body.appendChild(el('p', 'explain', human(line)));
    }
  }
  function safePart(body, c) {
    if (!c.safe) return;
    section(body, 'SAFE v0' + (c.safe.label ? ' · ' + c.safe.label : ''));
    if (c.safe.scores) body.appendChild(kv(c.safe.scores));
    var details = c.safe.details || {};
    Object.keys(details).forEach(function (metric) {
      var d = details[metric] || {};
      Object.keys(d).forEach(function (k) {
        if (!Array.isArray(d[k]) || !d[k].length) return;
        body.appendChild(el('p', 'note', metric + ' ' + k));
        body.appendChild(tags(d[k], k === 'found' ? 'safe' : 'unsafe'));
      });
    });
  }
  function scoresPart(body, c) {
    if (!c.scores) return;
    Object.keys(c.scores).forEach(function (name) {
      var v = c.scores[name];
      section(body, human(name));
      body.appendChild(v !== null && typeof v === 'object' && !Array.isArray(v) ? kv(v) : pre(JSON.stringify(v)));
    });
  }
  function openCase(i) {
    if (paging && (i < base || i >= base + cases.length)) {
      if (i >= 0 && i < paging.total) loadPage(pageOf(i), function () { openCase(i); });
      return;
    }
    var c = caseAt(i);
    var dlg = $('case-dialog');
    if (!c || !dlg) return;
    current = c;
    caseHeader(c);
    var body = $('case-body');
    body.replaceChildren();
    [reasonsPart, conversationPart, toolsPart, outputPart, messagesPart, riskPart, safePart, scoresPart].forEach(function (part) { part(body, c); });
    body.scrollTop = 0;
    $('tip').hidden = true;
    if (!dlg.open) dlg.showModal();
  }
  function step(delta) {
    if (paging) { location.hash = 'case-' + (current.i + delta); return; }
    var pos = view.indexOf(current);
    if (pos >= 0 && view[pos + delta]) location.hash = 'case-' + view[pos + delta].i;
  }
  function fromHash() {
    var m = /^#case-(\d+)$/.exec(location.hash);
    if (m) openCase(+m[1]);
  }
  function bindDialog() {
    var dlg = $('case-dialog');
    $('case-close').addEventListener('click', function () { dlg.close(); });
    $('case-prev').addEventListener('click', function () { step(-1); });
    $('case-next').addEventListener('click', function () { step(1); });
    dlg.addEventListener('click', function (e) { if (e.target === dlg) dlg.close(); });
    dlg.addEventListener('close', function () {
      // the close event comes a task later: a hash set for another case meanwhile must stay
      if (current && location.hash === '#case-' + current.i) history.replaceState(null, '', location.pathname + location.search);
    });
    window.addEventListener('hashchange', fromHash);
  }

  bindTable();
  bindScatter();
  bindDialog();
  refresh();
  drawScatter();
  fromHash();
})();
