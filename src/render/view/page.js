(function () {
  'use strict';
  // dopol view: renders the embedded data with DOM calls and textContent only.
  var $ = function (id) { return document.getElementById(id); };

  // The data (docs/view.md): lines of base64, each a zlib-compressed block of JSON, line 0 the
  // index of the parts. A block is read (decoded, inflated, parsed) once, when first needed:
  // the graph's parts when the page opens, a path's explanations when the path is opened.
  var raw = $('dopol-data').textContent;
  var lineStarts = [0];
  for (var at = raw.indexOf('\n'); at >= 0; at = raw.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  var blocks = new Map();
  var parts = {};
  function block(k) {
    if (!blocks.has(k)) {
      var end = k + 1 < lineStarts.length ? lineStarts[k + 1] - 1 : raw.length;
      blocks.set(k, inflate(raw.slice(lineStarts[k], end)));
    }
    return blocks.get(k);
  }
  function inflate(text) {
    var bytes;
    if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(text);
    else {
      var bin = atob(text);
      bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).text().then(JSON.parse);
  }
  // A part whole: its value, or an array with every block read; undefined when absent.
  function whole(name) {
    var part = parts[name];
    if (!part) return Promise.resolve(undefined);
    if (!part.starts) return block(part.first);
    var reads = part.starts.map(function (s, b) { return block(part.first + b); });
    return Promise.all(reads).then(function (lists) { return [].concat.apply([], lists); });
  }
  // The block of an array part that holds item n.
  function blockOf(part, n) {
    var lo = 0, hi = part.starts.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (part.starts[mid] <= n) lo = mid; else hi = mid - 1; }
    return lo;
  }
  // Items `numbers` of an array part, as a Map number → item, once their blocks are read.
  function itemsOf(name, numbers) {
    var part = parts[name];
    if (!part) return Promise.resolve(new Map());
    var wanted = new Map();
    numbers.forEach(function (n) { var b = blockOf(part, n); if (!wanted.has(b)) wanted.set(b, block(part.first + b)); });
    var keys = Array.from(wanted.keys());
    return Promise.all(keys.map(function (b) { return wanted.get(b); })).then(function (lists) {
      var got = new Map();
      numbers.forEach(function (n) { var b = blockOf(part, n); got.set(n, lists[keys.indexOf(b)][n - part.starts[b]]); });
      return got;
    });
  }
  // Every path id of the page, in page order: for tests and scripts (docs/view.md, hooks).
  var pathIds = function () { return []; };
  window.dopolView = { pathIds: function () { return opened.then(function () { return pathIds(); }); } };

  function ready() {
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = '1';
  }
  var opened = block(0).then(function (head) {
    parts = head.parts || {};
    var names = head.mode === 'diff' ? ['diff', 'groups', 'pathScopes', 'totals'] : ['policies', 'nodes', 'pathIds', 'foldHeads'];
    return Promise.all(names.map(whole)).then(function (v) {
      return head.mode === 'diff'
        ? run({ mode: 'diff', diff: v[0], groups: v[1], pathScopes: v[2], totals: v[3] })
        : run({ mode: 'view', view: { policies: v[0] || [], nodes: v[1] || [], pathIds: v[2] || [], foldHeads: v[3] || [], paths: null } });
    });
  }).then(ready, function (e) {
    $('status').textContent = 'This page could not read its data: ' + e;
    ready();
  });

  function run(data) {
    var view = data.view || { policies: [], nodes: [], pathIds: [], foldHeads: [], paths: null };
    // Each path's [folds, lost, effective]: read whole for the filters, by block for a stack.
    var pathCount = parts.paths ? parts.paths.count : 0;
    var pathsRead = null;
    function allPaths() {
      if (!pathsRead) pathsRead = whole('paths').then(function (l) { view.paths = l || []; return view.paths; });
      return pathsRead;
    }
    var strings = null;
    var lint = null;
    var lintCount = parts.lint ? parts.lint.count : 0;
    function stringList() {
      return strings ? Promise.resolve(strings) : whole('strings').then(function (l) { strings = l || []; return strings; });
    }
    function lintList() {
      return lint ? Promise.resolve(lint) : whole('lint').then(function (l) { lint = l || []; return lint; });
    }

    function el(tag, attrs, text) {
      var e = document.createElement(tag);
      if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
      if (text !== undefined && text !== null) e.textContent = String(text);
      return e;
    }
    function add(parent, child) { parent.appendChild(child); return child; }

    // Families → colour classes, in first-seen order of the policies.
    var families = [];
    var policyOf = new Map();
    view.policies.forEach(function (p, i) {
      if (families.indexOf(p.family) < 0) families.push(p.family);
      policyOf.set(p.locator, i);
    });
    function familyClass(family) { return 'f' + (Math.max(0, families.indexOf(family)) % 8); }
    function badge(policyIndex) {
      var p = view.policies[policyIndex];
      var b = el('span', { 'class': 'badge ' + familyClass(p.family), 'data-badge': p.locator, title: p.kind + ' ' + p.name + ' (' + p.family + ')' }, p.kind + ' ' + p.name);
      return b;
    }

    // The graph: nodes as a tree, children built when first expanded.
    var children = view.nodes.map(function () { return []; });
    var roots = [];
    view.nodes.forEach(function (n, i) { if (n[2] < 0) roots.push(i); else children[n[2]].push(i); });
    var pathNode = new Map();
    view.nodes.forEach(function (n, i) { n[4].forEach(function (p) { pathNode.set(p, i); }); });
    // A path's id: written in `pathIds` when it is not its elements' names joined by '|'
    // (docs/view.md), else those names joined.
    var explicitId = new Map(view.pathIds.map(function (e) { return [e[0], e[1]]; }));
    var explicitPath = new Map(view.pathIds.map(function (e) { return [e[1], e[0]]; }));
    function pathId(p) {
      if (explicitId.has(p)) return explicitId.get(p);
      return ancestors(pathNode.get(p)).map(function (n) { return view.nodes[n][1]; }).reverse().join('|');
    }
    // The path of an id: a written one, or the path down the tree whose names make it up.
    function findPath(id) {
      if (explicitPath.has(id)) return explicitPath.get(id);
      function walk(list, from) {
        for (var i = 0; i < list.length; i++) {
          var n = list[i], name = view.nodes[n][1];
          if (!id.startsWith(name, from)) continue;
          var end = from + name.length;
          if (end === id.length) {
            var here = view.nodes[n][4].filter(function (p) { return !explicitId.has(p); })[0];
            if (here !== undefined) return here;
          } else if (id[end] === '|') {
            var below = walk(children[n], end + 1);
            if (below !== undefined) return below;
          }
        }
        return undefined;
      }
      return walk(roots, 0);
    }
    pathIds = function () { var ids = []; for (var p = 0; p < pathCount; p++) ids.push(pathId(p)); return ids; };
    var CHUNK = 200;

    function treeItem(i) {
      var n = view.nodes[i];
      var hasKids = children[i].length > 0 || n[4].length > 1;
      var li = el('li', { role: 'treeitem', tabindex: '-1', 'data-node': String(i) });
      var row = add(li, el('div', { 'class': 'row' }));
      add(row, el('span', { 'class': 'twisty', 'aria-hidden': 'true' }, hasKids ? '▸' : ''));
      add(row, el('span', { 'class': 'kind' }, n[0]));
      add(row, el('span', { 'class': 'name' }, n[1]));
      n[3].forEach(function (p) { add(row, badge(p)); });
      if (n[4].length === 1) {
        li.classList.add('path');
        li.setAttribute('data-path-id', pathId(n[4][0]));
      }
      if (hasKids) li.setAttribute('aria-expanded', 'false');
      return li;
    }
    // The paths of node i listed in its group, before its children: those ending at it when
    // they are several (one path ending at a node is the node's own entry).
    function listedPaths(i) {
      return view.nodes[i][4].length > 1 ? view.nodes[i][4] : [];
    }
    function fillGroup(li, from) {
      var i = Number(li.getAttribute('data-node'));
      var group = li.querySelector(':scope > ul[role=group]');
      if (!group) group = add(li, el('ul', { role: 'group' }));
      var more = group.querySelector(':scope > li.more');
      if (more) more.remove();
      var kids = children[i];
      var multi = listedPaths(i);
      var items = multi.map(function (p) { return { path: p }; }).concat(kids.map(function (k) { return { node: k }; }));
      var end = Math.min(items.length, from + CHUNK);
      for (var j = from; j < end; j++) {
        var it = items[j];
        if (it.node !== undefined) add(group, treeItem(it.node));
        else {
          var pli = add(group, el('li', { role: 'treeitem', tabindex: '-1', 'class': 'path', 'data-path-id': pathId(it.path) }));
          var row = add(pli, el('div', { 'class': 'row' }));
          add(row, el('span', { 'class': 'kind' }, 'path'));
          add(row, el('span', { 'class': 'name' }, pathId(it.path)));
        }
      }
      if (end < items.length) {
        var m = add(group, el('li', { role: 'treeitem', tabindex: '-1', 'class': 'more', 'data-more': String(end) }));
        add(m, el('div', { 'class': 'row' }, 'show ' + Math.min(CHUNK, items.length - end) + ' more of ' + (items.length - end) + '…'));
      }
    }
    // Renders li's group page by page, in order, until its item `at` is there (pages are only
    // ever added after the last one, so the group never has a gap nor an item twice).
    function fillUntil(li, at) {
      for (;;) {
        var group = li.querySelector(':scope > ul[role=group]');
        var more = group && group.querySelector(':scope > li.more');
        var from = !group ? 0 : more ? Number(more.getAttribute('data-more')) : Infinity;
        if (from > at) return;
        fillGroup(li, from);
      }
    }
    function setExpanded(li, open) {
      if (!li.hasAttribute('aria-expanded')) return;
      li.setAttribute('aria-expanded', open ? 'true' : 'false');
      var tw = li.querySelector(':scope > .row > .twisty');
      if (tw) tw.textContent = open ? '▾' : '▸';
      var group = li.querySelector(':scope > ul[role=group]');
      if (open && !group) fillGroup(li, 0);
      else if (group) group.hidden = !open;
    }
    function renderRoots() {
      var tree = $('graph');
      tree.textContent = '';
      roots.forEach(function (r) { add(tree, treeItem(r)); });
      var first = tree.querySelector('li[role=treeitem]');
      if (first) first.setAttribute('tabindex', '0');
      // Open the first two levels when they are small.
      if (view.nodes.length <= 2000) tree.querySelectorAll(':scope > li').forEach(function (li) { setExpanded(li, true); });
    }
    function visibleItems() {
      return Array.prototype.filter.call($('graph').querySelectorAll('li[role=treeitem]'), function (li) {
        return li.offsetParent !== null;
      });
    }
    // The tree's one tab stop.
    function setTabStop(li) {
      $('graph').querySelectorAll('li[tabindex="0"]').forEach(function (o) { o.setAttribute('tabindex', '-1'); });
      li.setAttribute('tabindex', '0');
    }
    function focusItem(li) {
      setTabStop(li);
      li.focus();
    }
    function activate(li) {
      if (li.classList.contains('more')) {
        var parent = li.parentElement.parentElement;
        var from = Number(li.getAttribute('data-more'));
        fillGroup(parent, from);
        var next = parent.querySelectorAll(':scope > ul > li')[from];
        if (next) focusItem(next);
        return;
      }
      if (li.hasAttribute('data-path-id')) openPath(li.getAttribute('data-path-id'), true);
      if (li.hasAttribute('aria-expanded')) setExpanded(li, li.getAttribute('aria-expanded') !== 'true');
    }
    $('graph').addEventListener('click', function (e) {
      var li = e.target.closest('li[role=treeitem]');
      if (!li || moved) return;
      focusItem(li);
      activate(li);
    });
    $('graph').addEventListener('keydown', function (e) {
      var li = e.target.closest('li[role=treeitem]');
      if (!li) return;
      var items = visibleItems();
      var at = items.indexOf(li);
      var handled = true;
      switch (e.key) {
        case 'ArrowDown': if (at + 1 < items.length) focusItem(items[at + 1]); break;
        case 'ArrowUp': if (at > 0) focusItem(items[at - 1]); break;
        case 'Home': focusItem(items[0]); break;
        case 'End': focusItem(items[items.length - 1]); break;
        case 'ArrowRight':
          if (li.getAttribute('aria-expanded') === 'false') setExpanded(li, true);
          else if (li.getAttribute('aria-expanded') === 'true' && at + 1 < items.length) focusItem(items[at + 1]);
          break;
        case 'ArrowLeft':
          if (li.getAttribute('aria-expanded') === 'true') setExpanded(li, false);
          else { var up = li.parentElement.closest('li[role=treeitem]'); if (up) focusItem(up); }
          break;
        case 'Enter': case ' ': activate(li); break;
        default: handled = false;
      }
      if (handled) e.preventDefault();
    });
    // Pan by dragging, zoom by buttons (and ctrl+wheel).
    var zoom = 1, moved = false, drag = null;
    function setZoom(z) {
      zoom = Math.min(3, Math.max(0.4, z));
      document.documentElement.style.setProperty('--zoom', String(zoom));
      $('zoom-reset').textContent = Math.round(zoom * 100) + '%';
    }
    $('zoom-in').addEventListener('click', function () { setZoom(zoom * 1.2); });
    $('zoom-out').addEventListener('click', function () { setZoom(zoom / 1.2); });
    $('zoom-reset').addEventListener('click', function () { setZoom(1); });
    $('collapse-all').addEventListener('click', function () {
      $('graph').querySelectorAll('li[aria-expanded=true]').forEach(function (li) { setExpanded(li, false); });
      // The tree's one tab stop moves up to the item still shown above it.
      var stop = $('graph').querySelector('li[tabindex="0"]');
      while (stop && stop.offsetParent === null) stop = stop.parentElement.closest('li[role=treeitem]');
      if (stop) setTabStop(stop);
    });
    var scroller = $('graph-scroll');
    scroller.addEventListener('wheel', function (e) {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom(zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1));
    }, { passive: false });
    scroller.addEventListener('mousedown', function (e) {
      // The main button only, and not on the pane's own scroll bars (they scroll it already).
      if (e.button !== 0 || e.offsetX >= scroller.clientWidth || e.offsetY >= scroller.clientHeight) return;
      drag = { x: e.clientX, y: e.clientY, left: scroller.scrollLeft, top: scroller.scrollTop };
      moved = false;
    });
    function endDrag() {
      drag = null;
      scroller.classList.remove('panning');
      setTimeout(function () { moved = false; }, 0);
    }
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      // The button was let go where no mouseup reached the page (a context menu, another window).
      if ((e.buttons & 1) === 0) { endDrag(); return; }
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 4) { moved = true; scroller.classList.add('panning'); }
      scroller.scrollLeft = drag.left - dx;
      scroller.scrollTop = drag.top - dy;
    });
    window.addEventListener('mouseup', endDrag);

    // The legend of families.
    families.forEach(function (f) { add($('legend'), el('span', { 'class': 'badge ' + familyClass(f) }, f)); });

    // Search and filters over paths.
    // A path's stack: its kinds' explanations (shared by the paths with the same policies) and
    // the rules that lost on it.
    // Read from their blocks when the path is opened, with the strings and the lint findings.
    function loadStack(p) {
      return itemsOf('paths', [p]).then(function (got) { return stackOf(got.get(p)); });
    }
    function stackOf(path) {
      var reads = [itemsOf('folds', path[0]), itemsOf('lost', [path[1]]), itemsOf('effective', path[2]), stringList(), lintList()];
      return Promise.all(reads).then(function (r) {
        return {
          path: path,
          kinds: path[0].map(function (f) { return decodeFold(r[0].get(f)); }),
          lost: (r[1].get(path[1]) || []).map(function (l) {
            return { policy: S(l[0]), block: S(l[1]), key: S(l[2]), outcome: S(l[3]), by: l[4].map(S), reason: S(l[5]) };
          }),
          effective: r[2]
        };
      });
    }
    // Explanations and lost rows name their strings by number (docs/view.md).
    function S(i) { return i >= 0 ? strings[i] : undefined; }
    function decodeFold(f) {
      return {
        policyKind: S(f[0]),
        policies: f[1].map(function (p) {
          return { position: p[0], policy: S(p[1]), name: S(p[2]), target: S(p[3]), level: S(p[4]), creationTimestamp: S(p[5]), blocks: p[6].map(S), why: S(p[7]), defaulted: p[8] };
        }),
        steps: f[2].map(function (s) {
          return {
            position: s[0], policy: S(s[1]), block: S(s[2]), strategy: S(s[3]), gep: S(s[4]), summary: S(s[5]), applied: s[6] === 1, reason: S(s[7]),
            changes: s[8].map(function (c) { return { key: S(c[0]), action: S(c[1]), source: S(c[2]), by: c[3].map(S) }; })
          };
        }),
        effective: f[3].map(function (e) { return [S(e[0]), S(e[1])]; }),
        origins: f[4].map(function (o) { return { key: S(o[0]), origins: o[1].map(S) }; }),
        notes: f[5].map(S)
      };
    }
    var foldKind = view.foldHeads.map(function (h) { return h[0]; });
    var kindFamily = new Map();
    view.policies.forEach(function (p) { kindFamily.set(p.kind, p.family); });
    function fillSelect(id, values) {
      var select = $(id);
      values.sort().forEach(function (v) { add(select, el('option', { value: v }, v)); });
    }
    fillSelect('filter-kind', Array.from(kindFamily.keys()));
    fillSelect('filter-family', families.slice());
    var namespaces = new Set(), gateways = new Set();
    view.nodes.forEach(function (n) {
      if (n[0] === 'Gateway') { gateways.add(n[1]); namespaces.add(n[1].split('/')[0]); }
      else if (/Route$/.test(n[0]) || n[0] === 'Dataplane') { var ns = n[1].split('/'); if (ns.length > 1) namespaces.add(ns[0]); }
    });
    view.policies.forEach(function (p) { namespaces.add(p.name.split('/')[0]); });
    fillSelect('filter-namespace', Array.from(namespaces));
    fillSelect('filter-gateway', Array.from(gateways));
    function ancestors(node) {
      var list = [];
      for (var i = node; i >= 0; i = view.nodes[i][2]) list.push(i);
      return list;
    }
    function matches(p, q) {
      var id = pathId(p);
      var kinds = view.paths[p][0].map(function (f) { return foldKind[f]; });
      if (q.kind && kinds.indexOf(q.kind) < 0) return false;
      if (q.family && !kinds.some(function (k) { return kindFamily.get(k) === q.family; })) return false;
      if (q.text && id.toLowerCase().indexOf(q.text) < 0 && !policiesOnPath(p).some(function (l) { return l.toLowerCase().indexOf(q.text) >= 0; })) return false;
      if (q.namespace || q.gateway) {
        var chain = ancestors(pathNode.get(p)).map(function (n) { return view.nodes[n]; });
        if (q.gateway && !chain.some(function (n) { return n[0] === 'Gateway' && n[1] === q.gateway; })) return false;
        // An element in the namespace (a name `ns/...`, or one of `|`-joined names; a
        // GatewayClass or a Mesh has none), or a policy of the path's stack in it.
        if (q.namespace && !chain.some(function (n) { return n[1].split('|').some(function (s) { return namespaceOf(s) === q.namespace; }); })
          && !policyNumbers(p).some(function (i) { return namespaceOf(view.policies[i].name) === q.namespace; })) return false;
      }
      return true;
    }
    function namespaceOf(name) {
      var at = name.indexOf('/');
      return at > 0 ? name.slice(0, at) : null;
    }
    function policyNumbers(p) {
      var list = [];
      view.paths[p][0].forEach(function (f) { view.foldHeads[f][1].forEach(function (i) { list.push(i); }); });
      return list;
    }
    function policiesOnPath(p) {
      return policyNumbers(p).map(function (i) { return view.policies[i].locator; });
    }
    function query() {
      return {
        text: $('search').value.trim().toLowerCase(),
        kind: $('filter-kind').value,
        family: $('filter-family').value,
        namespace: $('filter-namespace').value,
        gateway: $('filter-gateway').value
      };
    }
    var LIMIT = 500;
    // Over this many paths a filter pass takes long enough to wait for a pause in typing.
    var DEBOUNCE_PATHS = 20000, debounce = null;
    function filtersChanged() {
      if (pathCount <= DEBOUNCE_PATHS) { runFilters(); return; }
      clearTimeout(debounce);
      debounce = setTimeout(runFilters, 150);
    }
    function runFilters() {
      var q = query();
      var results = $('results');
      results.textContent = '';
      var status = $('status');
      status.classList.remove('empty');
      if (!q.text && !q.kind && !q.family && !q.namespace && !q.gateway) {
        results.hidden = true;
        status.textContent = pathCount + ' paths, ' + view.policies.length + ' policies.';
        return;
      }
      if (!view.paths) {
        // The filters read every path: read them once, then filter once (with the query then),
        // however many keys were pressed meanwhile.
        status.textContent = 'Reading ' + pathCount + ' paths…';
        // A read under way has its filter pass scheduled already.
        if (!pathsRead) {
          allPaths().then(runFilters, function (e) {
            status.textContent = 'This page could not read its paths: ' + e;
          });
        }
        return;
      }
      var found = 0;
      for (var p = 0; p < view.paths.length; p++) {
        if (!matches(p, q)) continue;
        found++;
        if (found <= LIMIT) {
          var li = add(results, el('li', { 'data-path-id': pathId(p) }));
          add(li, el('button', { type: 'button' }, pathId(p)));
        }
      }
      results.hidden = found === 0;
      if (found === 0) {
        status.classList.add('empty');
        status.textContent = 'No path matches these filters.';
      } else {
        status.textContent = found + ' of ' + view.paths.length + ' paths match' + (found > LIMIT ? ' (the first ' + LIMIT + ' listed).' : '.');
      }
    }
    $('filters').addEventListener('submit', function (e) { e.preventDefault(); });
    $('results').addEventListener('click', function (e) {
      var li = e.target.closest('li[data-path-id]');
      if (li) openPath(li.getAttribute('data-path-id'), true);
    });

    // The stack of one path.
    function reveal(p) {
      var chain = ancestors(pathNode.get(p)).reverse();
      var tree = $('graph');
      var li = null;
      chain.forEach(function (n) {
        li = tree.querySelector('li[data-node="' + n + '"]');
        if (!li) {
          var parent = view.nodes[n][2];
          var pli = parent >= 0 ? tree.querySelector('li[data-node="' + parent + '"]') : null;
          if (pli) {
            fillUntil(pli, listedPaths(parent).length + children[parent].indexOf(n));
            li = tree.querySelector('li[data-node="' + n + '"]');
          }
        }
        if (li && li.getAttribute('aria-expanded') === 'false') setExpanded(li, true);
      });
      tree.querySelectorAll('li[aria-selected]').forEach(function (o) { o.removeAttribute('aria-selected'); });
      if (li) {
        var listed = listedPaths(pathNode.get(p));
        if (listed.length) fillUntil(li, listed.indexOf(p));
        var target = listed.length
          ? li.querySelector(':scope > ul > li[data-path-id="' + CSS.escape(pathId(p)) + '"]') : li;
        if (target) { target.setAttribute('aria-selected', 'true'); target.scrollIntoView({ block: 'nearest' }); }
      }
    }
    // The element of path p the policy is attached to, from the graph (the explanation a path
    // shares with others names the first one's).
    function targetOn(p, locator) {
      var policy = policyOf.get(locator);
      var found = ancestors(pathNode.get(p)).filter(function (n) { return view.nodes[n][3].indexOf(policy) >= 0; })[0];
      return found === undefined ? '' : view.nodes[found][0] + ' ' + view.nodes[found][1];
    }
    function json(v) { return JSON.stringify(v, null, 2); }
    function rowsOf(p, kind, stack) {
      var rows = [];
      var body = stack.path[2].map(function (n) { return stack.effective.get(n); })
        .filter(function (e) { return e && e.policyKind === kind.policyKind; })[0];
      var rules = body ? body.rules || {} : {};
      var mine = new Set(kind.policies.map(function (p) { return p.policy; }));
      (kind.effective || []).forEach(function (pair) {
        var key = pair[0], source = pair[1], rule = rules[key] || {};
        var origins = rule.origins || [source];
        rows.push({ policy: source, key: key, outcome: 'effective', value: rule.value, source: source, origins: origins, by: [] });
        origins.slice(1).forEach(function (o) {
          rows.push({ policy: o, key: key, outcome: 'merged', value: rule.value, source: source, origins: origins, by: [] });
        });
      });
      (stack.lost || []).forEach(function (l) {
        if (!mine.has(l.policy)) return;
        rows.push({ policy: l.policy, block: l.block, key: l.key, outcome: l.outcome, by: l.by, reason: l.reason });
      });
      kind.policies.forEach(function (p) {
        var v = view.policies[policyOf.get(p.policy)];
        if (v && v.conflicted && !rows.some(function (r) { return r.policy === p.policy; })) {
          rows.push({ policy: p.policy, key: '', outcome: 'conflicted', by: [] });
        }
      });
      return rows;
    }
    function policyLabel(locator) {
      var p = view.policies[policyOf.get(locator)];
      return p ? p.kind + ' ' + p.name : locator;
    }
    function shortName(locator) {
      var p = view.policies[policyOf.get(locator)];
      return p ? p.name : locator;
    }
    function cell(tr, text, cls) { var td = add(tr, el('td', cls ? { 'class': cls } : null, text)); return td; }
    function table(headers) {
      var t = el('table');
      var tr = add(add(t, el('thead')), el('tr'));
      headers.forEach(function (h) { add(tr, el('th', { scope: 'col' }, h)); });
      return { table: t, body: add(t, el('tbody')) };
    }
    function strategies(kind, locator) {
      var seen = [];
      (kind.steps || []).forEach(function (s) {
        if (s.policy !== locator) return;
        var word = s.block + ': ' + s.gep + ' (' + s.strategy + ')';
        if (seen.indexOf(word) < 0) seen.push(word);
      });
      return seen.join('; ');
    }
    function renderKind(box, p, kind, stack) {
      var rows = rowsOf(p, kind, stack);
      var h = add(box, el('h3', null, kind.policyKind));
      var first = view.policies[policyOf.get((kind.policies[0] || {}).policy)];
      if (first) add(h, el('span', { 'class': 'badge ' + familyClass(first.family) }, first.family));
      var lostCount = rows.filter(function (r) { return r.outcome !== 'effective' && r.outcome !== 'merged'; }).length;
      if (lostCount) add(h, el('span', { 'class': 'marker' }, lostCount + ' overridden or lost'));
      var t = table(['#', 'policy', 'target', 'level', 'strategy (GEP-713, family)', 'why here']);
      kind.policies.forEach(function (pol) {
        var tr = add(t.body, el('tr', { 'data-stack-policy': pol.policy }));
        cell(tr, pol.position);
        cell(tr, policyLabel(pol.policy), 'mono').title = pol.policy;
        cell(tr, targetOn(p, pol.policy) || pol.target);
        cell(tr, pol.level);
        cell(tr, strategies(kind, pol.policy) || (pol.blocks || []).join(', '));
        cell(tr, pol.why);
      });
      add(box, t.table);
      var r = table(['policy', 'rule key', 'outcome', 'value', 'source / origins', 'beaten by']);
      r.table.setAttribute('aria-label', kind.policyKind + ' rules');
      rows.forEach(function (row) {
        var tr = add(r.body, el('tr', { 'data-policy': row.policy, 'data-rule-key': row.key, 'data-outcome': row.outcome }));
        cell(tr, policyLabel(row.policy), 'mono').title = row.policy;
        cell(tr, row.key, 'mono');
        cell(tr, row.outcome + (row.block && row.block !== 'bare' && row.block !== 'spec' ? ' (' + row.block + ')' : ''), 'outcome');
        var v = cell(tr, '');
        if (row.value !== undefined) add(v, el('pre', { tabindex: '0' }, json(row.value)));
        cell(tr, row.origins ? row.origins.map(shortName).join(', ') : '', 'mono');
        cell(tr, (row.by || []).map(shortName).join(', ') + (row.reason ? ' — ' + row.reason : ''), 'mono');
      });
      add(box, r.table);
      var d = add(box, el('details'));
      add(d, el('summary', null, 'explain: ' + (kind.steps || []).length + ' fold steps, most specific first'));
      var s = table(['#', 'policy', 'block', 'strategy', 'applied', 'what it did', 'changes']);
      (kind.steps || []).forEach(function (step) {
        var tr = add(s.body, el('tr'));
        cell(tr, step.position);
        cell(tr, step.policy, 'mono');
        cell(tr, step.block);
        cell(tr, step.gep + ' (' + step.strategy + ')');
        cell(tr, step.applied ? 'yes' : 'no' + (step.reason ? ': ' + step.reason : ''));
        cell(tr, step.summary);
        cell(tr, (step.changes || []).map(function (c) {
          return c.action + ' ' + c.key + (c.by && c.by.length ? ' by ' + c.by.join(', ') : '');
        }).join('; '), 'mono');
      });
      add(d, s.table);
      (kind.notes || []).forEach(function (n) { add(box, el('p', { 'class': 'hint' }, n)); });
    }
    function objectsOf(p, stack) {
      var names = new Set();
      ancestors(pathNode.get(p)).forEach(function (n) {
        var node = view.nodes[n];
        var kind = node[0].replace(/ rule$/, '');
        var name = node[1].split('#')[0].split('>').pop();
        names.add(kind + ' ' + name);
      });
      (stack.kinds || []).forEach(function (k) {
        k.policies.forEach(function (x) { var v = view.policies[policyOf.get(x.policy)]; if (v) names.add(v.kind + ' ' + v.name); });
      });
      return names;
    }
    function findingList(box, found) {
      var ul = add(box, el('ul'));
      found.forEach(function (d) {
        var li = add(ul, el('li', { 'data-code': d.code }));
        add(li, el('span', { 'class': 'sev-' + d.severity }, d.severity + ' ' + d.code + ' ' + d.name + ': '));
        add(li, document.createTextNode(d.message + ' (' + d.file + ':' + d.line + ':' + d.column + ')'));
      });
    }
    function renderLint(box, p, stack) {
      var names = objectsOf(p, stack);
      var found = lint.filter(function (d) { return d.object && names.has(d.object); });
      add(box, el('h3', null, 'Lint findings on the objects of this stack'));
      if (!found.length) add(box, el('p', { 'class': 'hint' }, 'None.'));
      else findingList(box, found);
    }
    // Every finding, listed when the list is first opened (the findings are read then).
    function renderAllFindings(box) {
      if (!lintCount) return;
      var d = add(box, el('details', { id: 'all-findings' }));
      add(d, el('summary', null, 'All lint findings of the input (' + lintCount + ')'));
      d.addEventListener('toggle', function () {
        if (d.open && !d.dataset.filled) {
          d.dataset.filled = '1';
          lintList().then(function (list) { findingList(d, list); });
        }
      });
    }
    // Opens a path's stack once its data is read; a path opened meanwhile wins (the latest).
    var opening = 0;
    var openPath = function (id, setHash) {
      var p = findPath(id);
      var box = $('stack');
      var mine = ++opening;
      if (p === undefined) {
        box.textContent = '';
        add(box, el('p', { 'class': 'empty' }, 'No path has this id: ' + id));
        return Promise.resolve();
      }
      if (setHash) history.replaceState(null, '', '#path=' + encodeURIComponent(id));
      return loadStack(p).then(function (stack) {
        if (mine !== opening) return;
        box.textContent = '';
        if (!stack.kinds.length) add(box, el('p', { 'class': 'hint' }, 'No policy takes part on this path.'));
        stack.kinds.forEach(function (k) { renderKind(box, p, k, stack); });
        renderLint(box, p, stack);
        renderAllFindings(box);
        reveal(p);
        // Last: scripts and tests wait for it (docs/view.md, hooks).
        box.insertBefore(el('p', { 'class': 'mono', 'data-open-path': id }, id), box.firstChild);
      });
    };
    function fromHash() {
      var m = /^#path=(.*)$/.exec(location.hash);
      if (!m) return Promise.resolve();
      var id;
      try { id = decodeURIComponent(m[1]); } catch (e) { id = m[1]; }
      return openPath(id, false);
    }
    window.addEventListener('hashchange', fromHash);

    // Diff mode: the changes grouped as the text diff groups them, before and after side by side.
    var diff = data.diff || { changes: [], paths: [], status: [] };
    function changeWords(c) {
      if (c.change === 'added') return '+ ' + c.policyKind + ' ' + c.key + ' added';
      if (c.change === 'removed') return '- ' + c.policyKind + ' ' + c.key + ' removed';
      var what = [c.valueChanged ? 'value' : '', c.sourceChanged ? 'source' : ''].filter(Boolean).join(' and ');
      return '~ ' + c.policyKind + ' ' + c.key + ' ' + (what || 'origins') + ' changed';
    }
    function renderChange(box, c, scope) {
      var section = add(box, el('section', { 'class': 'change', 'data-change': c.change, 'data-rule-key': c.key, 'data-policy-kind': c.policyKind }));
      add(section, el('h3', null, changeWords(c)));
      if (scope) add(section, el('pre', { 'class': 'scope' }, scope));
      var t = table(['', 'before', 'after']);
      t.table.classList.add('sides');
      [['value', function (side) { return el('pre', { tabindex: '0' }, json(side.value)); }],
       ['source', function (side) { return el('span', { 'class': 'mono' }, side.source); }],
       ['origins', function (side) { return el('span', { 'class': 'mono' }, (side.origins || [side.source]).join(', ')); }]
      ].forEach(function (row) {
        var tr = add(t.body, el('tr', { 'data-side-row': row[0] }));
        add(tr, el('th', { scope: 'row' }, row[0]));
        [[c.before, 'removed'], [c.after, 'added']].forEach(function (side) {
          var td = add(tr, el('td', { 'class': side[0] ? side[1] : '' }));
          if (side[0]) add(td, row[1](side[0])); else td.textContent = '—';
        });
      });
      add(section, t.table);
      if (c.valueDiff) {
        var d = add(section, el('details', { open: '' }));
        add(d, el('summary', null, 'value diff'));
        add(d, el('pre', null, c.valueDiff));
      }
    }
    function renderDiffGroups(onlyPath) {
      var box = $('stack');
      box.textContent = '';
      var q = $('search').value.trim().toLowerCase();
      add(box, el('p', { 'class': 'mono' }, data.totals || ''));
      var shown = 0;
      (data.groups || []).forEach(function (g) {
        var changes = g.changes.map(function (i) { return diff.changes[i]; });
        if (onlyPath && !changes.some(function (c) { return c.pathId === onlyPath; })) return;
        var first = changes[0];
        var text = (changeWords(first) + ' ' + g.scope + ' ' + JSON.stringify([first.before, first.after])).toLowerCase();
        if (q && text.indexOf(q) < 0) return;
        shown++;
        renderChange(box, first, onlyPath ? onlyPath : g.scope);
      });
      [['listeners', 'listenerId'], ['owned', 'pathId']].forEach(function (part) {
        (diff[part[0]] || []).forEach(function (c) {
          if (onlyPath && c[part[1]] !== onlyPath) return;
          if (q && JSON.stringify(c).toLowerCase().indexOf(q) < 0) return;
          shown++;
          renderChange(box, c, c[part[1]]);
        });
      });
      if (!onlyPath && diff.paths.length) {
        add(box, el('h3', null, 'Paths'));
        ['added', 'removed'].forEach(function (k) {
          var scope = (data.pathScopes || {})[k];
          if (diff.paths.some(function (p) { return p.change === k; })) add(box, el('pre', { 'class': k, 'data-paths': k }, (k === 'added' ? '+ ' : '- ') + scope));
        });
      }
      if (!onlyPath && diff.status.length) {
        add(box, el('h3', null, 'Status changes'));
        var t = table(['policy', 'before', 'after']);
        diff.status.forEach(function (s) {
          var tr = add(t.body, el('tr', { 'data-policy': s.policy }));
          cell(tr, s.policy, 'mono');
          [s.before, s.after].forEach(function (side) {
            cell(tr, side.map(function (c) { return c.type + '=' + c.status + ' (' + c.reason + ')'; }).join(', '));
          });
        });
        add(box, t.table);
      }
      // The paths added or removed and the status changes are shown whole, whatever the search.
      var sections = [];
      if (!onlyPath && diff.paths.length) sections.push('paths added or removed');
      if (!onlyPath && diff.status.length) sections.push(diff.status.length + (diff.status.length === 1 ? ' status change' : ' status changes'));
      var none = shown === 0 && !sections.length;
      var status = $('status');
      status.classList.toggle('empty', none && (q !== '' || !!onlyPath));
      status.textContent = none
        ? (q || onlyPath ? 'No change matches.' : 'No differences.')
        : (shown ? [shown + ' distinct changes'] : []).concat(sections).join(', ') + ' shown.';
    }
    function renderDiff() {
      $('mode-title').textContent = 'diff';
      $('graph-heading').textContent = 'Changed paths';
      $('stack-heading').textContent = 'Changes';
      ['filter-kind', 'filter-family', 'filter-namespace', 'filter-gateway'].forEach(function (id) { $(id).parentElement.hidden = true; });
      $('legend').hidden = true;
      var seen = new Map();
      diff.changes.forEach(function (c) { if (!seen.has(c.pathId)) seen.set(c.pathId, 'changed'); });
      diff.paths.forEach(function (p) { seen.set(p.pathId, p.change); });
      (diff.owned || []).forEach(function (c) { if (!seen.has(c.pathId)) seen.set(c.pathId, 'changed'); });
      var tree = $('graph');
      Array.from(seen.keys()).sort().forEach(function (id, i) {
        var li = add(tree, el('li', { role: 'treeitem', tabindex: i === 0 ? '0' : '-1', 'class': 'path ' + seen.get(id), 'data-path-id': id, 'data-change': seen.get(id) }));
        var row = add(li, el('div', { 'class': 'row' }));
        add(row, el('span', { 'class': 'kind' }, seen.get(id)));
        add(row, el('span', { 'class': 'name' }, id));
      });
      // The open path (null: none): a search narrows its changes, it does not drop it.
      var current = null;
      function showChanges() {
        renderDiffGroups(current);
        if (current !== null) add($('stack'), el('p', { 'class': 'mono', 'data-open-path': current }, current));
      }
      $('search').addEventListener('input', showChanges);
      openPath = function (id, setHash) {
        if (setHash) history.replaceState(null, '', '#path=' + encodeURIComponent(id));
        tree.querySelectorAll('li[aria-selected]').forEach(function (o) { o.removeAttribute('aria-selected'); });
        var li = tree.querySelector('li[data-path-id="' + CSS.escape(id) + '"]');
        if (li) li.setAttribute('aria-selected', 'true');
        current = id;
        showChanges();
        return Promise.resolve();
      };
      renderDiffGroups(null);
    }

    if (data.mode === 'diff') {
      renderDiff();
    } else {
      renderRoots();
      renderAllFindings($('stack'));
      runFilters();
      ['search', 'filter-kind', 'filter-family', 'filter-namespace', 'filter-gateway'].forEach(function (id) {
        $(id).addEventListener('input', filtersChanged);
      });
    }
    return fromHash();
  }
})();
