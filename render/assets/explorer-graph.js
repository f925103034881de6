// SPDX-License-Identifier: MIT
// explorer-graph.js - the neighbourhood graph of kmag's explorer page: picks
// the callers and callees around a function, lays them out in layers
// (callers to the left, callees to the right) and draws them as SVG with pan
// and zoom. The layout is our own small layered (Sugiyama-style) one: the
// page must work offline from one file, and the neighbourhoods it draws are
// at most a few hundred nodes, where this is instant.
"use strict";
var KG = (function () {
	var SVGNS = "http://www.w3.org/2000/svg";
	var CHAR_W = 7.3, NODE_H = 34, VGAP = 12, HGAP = 80, MAX_CHARS = 56, MIN_READABLE = 0.7;

	// Graph g: {n, src[], dst[], outs[v] = [edge...], ins[v] = [edge...], ew[e] (rank weight)}.
	// Returns {nodes: [{v, layer}], more: [{parent, layer, count, dir}], layerOf: Map}.
	// path: optional nodes drawn whatever the budget, at their layers ([{v, layer}]: an
	// error's chain from its entry point down to the focus, explorer-errors.js).
	function neighbourhood(g, focus, up, down, fanout, maxNodes, path) {
		var layerOf = new Map(), nodes = [{ v: focus, layer: 0 }], more = [];
		layerOf.set(focus, 0);
		(path || []).forEach(function (p) {
			if (!layerOf.has(p.v)) {
				layerOf.set(p.v, p.layer);
				nodes.push({ v: p.v, layer: p.layer });
			}
		});
		function expand(frontier, dir, depth) {
			var next = [];
			for (var i = 0; i < frontier.length; i++) {
				var v = frontier[i], list = (dir > 0 ? g.outs[v] : g.ins[v]).slice();
				list.sort(function (a, b) { return g.ew[b] - g.ew[a]; });
				var taken = 0, skipped = 0;
				for (var j = 0; j < list.length; j++) {
					var u = dir > 0 ? g.dst[list[j]] : g.src[list[j]];
					if (layerOf.has(u))
						continue;
					if (taken >= fanout || nodes.length >= maxNodes) {
						skipped++;
						continue;
					}
					layerOf.set(u, dir * depth);
					nodes.push({ v: u, layer: dir * depth });
					next.push(u);
					taken++;
				}
				if (skipped)
					more.push({ parent: v, layer: dir * depth, count: skipped, dir: dir });
			}
			return next;
		}
		// alternate sides level by level so neither uses up the node budget
		var fu = [focus], fd = [focus];
		for (var d = 1; d <= Math.max(up, down); d++) {
			if (d <= down && fd.length)
				fd = expand(fd, 1, d);
			if (d <= up && fu.length)
				fu = expand(fu, -1, d);
		}
		return { nodes: nodes, more: more, layerOf: layerOf };
	}

	// a long name cut in the middle, as the graph and chart pictures cut theirs
	// (names sharing a prefix differ at the end); never inside a surrogate pair
	function label(name) {
		if (name.length <= MAX_CHARS)
			return name;
		var head = MAX_CHARS >> 1, tail = name.length - (MAX_CHARS - 1 - head);
		if (/[\udc00-\udfff]/.test(name.charAt(head)))
			head--;
		if (/[\udc00-\udfff]/.test(name.charAt(tail)))
			tail++;
		return name.substring(0, head) + "\u2026" + name.substring(tail);
	}

	// Layered layout: x by layer, order in a layer by barycentre sweeps.
	function layout(g, hood, sub) {
		var layers = new Map(), items = [], i, k;
		hood.nodes.forEach(function (n) {
			var it = { v: n.v, layer: n.layer, name: g.name[n.v], sub: sub(n.v), more: null };
			items.push(it);
		});
		hood.more.forEach(function (m) {
			var word = m.dir > 0 ? "callees" : "callers";
			items.push({ v: -1, layer: m.layer, name: "+" + m.count + " more " + word,
				     sub: "of " + g.name[m.parent], more: m });
		});
		items.forEach(function (it) {
			it.w = Math.max(label(it.name).length, it.sub.length) * CHAR_W + 14;
			if (!layers.has(it.layer))
				layers.set(it.layer, []);
			layers.get(it.layer).push(it);
		});
		var keys = Array.from(layers.keys()).sort(function (a, b) { return a - b; });
		var idx = new Map();
		items.forEach(function (it) { if (it.v >= 0) idx.set(it.v, it); });
		// neighbours among the drawn nodes, for the barycentre heuristic
		var edges = [];
		items.forEach(function (it) {
			if (it.v < 0)
				return;
			g.outs[it.v].forEach(function (e) {
				if (idx.has(g.dst[e]))
					edges.push(e);
			});
		});
		var nbr = new Map();
		items.forEach(function (it) { nbr.set(it, []); });
		edges.forEach(function (e) {
			var a = idx.get(g.src[e]), b = idx.get(g.dst[e]);
			if (a !== b) {
				nbr.get(a).push(b);
				nbr.get(b).push(a);
			}
		});
		items.forEach(function (it) {
			if (it.more)
				nbr.get(it).push(idx.get(it.more.parent));
		});
		function place() {
			keys.forEach(function (l) {
				var list = layers.get(l);
				for (var j = 0; j < list.length; j++)
					list[j].pos = j - (list.length - 1) / 2;
			});
		}
		place();
		for (k = 0; k < 6; k++) {
			var order = k % 2 ? keys.slice().reverse() : keys;
			order.forEach(function (l) {
				if (l === 0)
					return;
				var list = layers.get(l);
				list.forEach(function (it, j) {
					var ns = nbr.get(it).filter(function (o) { return o && o.layer !== l; });
					it.bary = ns.length ? ns.reduce(function (s, o) { return s + o.pos; }, 0) / ns.length :
						j - (list.length - 1) / 2;
					if (it.more)
						it.bary += 0.5;	// "more" after its siblings
				});
				list.sort(function (a, b) { return a.bary - b.bary; });
				for (var j = 0; j < list.length; j++)
					list[j].pos = j - (list.length - 1) / 2;
			});
		}
		var x = 0, bounds = { x0: 0, y0: 0, x1: 0, y1: 0 };
		keys.forEach(function (l) {
			var list = layers.get(l), w = 0;
			list.forEach(function (it) { w = Math.max(w, it.w); });
			list.forEach(function (it) {
				it.x = x + (w - it.w) / 2;
				it.y = it.pos * (NODE_H + VGAP) - NODE_H / 2;
				bounds.y0 = Math.min(bounds.y0, it.y);
				bounds.y1 = Math.max(bounds.y1, it.y + NODE_H);
			});
			x += w + HGAP;
		});
		bounds.x1 = x - HGAP;
		bounds.y1 += 60;	// room for the arcs of back edges
		return { items: items, edges: edges, idx: idx, bounds: bounds };
	}

	function el(tag, attrs, parent) {
		var e = document.createElementNS(SVGNS, tag);
		for (var k in attrs)
			e.setAttribute(k, attrs[k]);
		if (parent)
			parent.appendChild(e);
		return e;
	}

	// View state and interaction of one <svg>.
	function View(svg, viewport) {
		this.svg = svg;
		this.vp = viewport;
		this.k = 1;
		this.tx = 0;
		this.ty = 0;
		this.bounds = null;
		var self = this, drag = null;
		svg.addEventListener("wheel", function (e) {
			e.preventDefault();
			var r = svg.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
			var k = Math.min(4, Math.max(0.08, self.k * Math.exp(-e.deltaY * 0.0015)));
			self.tx = px - (px - self.tx) * k / self.k;
			self.ty = py - (py - self.ty) * k / self.k;
			self.k = k;
			self.apply();
		}, { passive: false });
		svg.addEventListener("pointerdown", function (e) {
			if (e.button !== 0)
				return;
			drag = { x: e.clientX, y: e.clientY, tx: self.tx, ty: self.ty, moved: false };
		});
		window.addEventListener("pointermove", function (e) {
			if (!drag)
				return;
			var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
			if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4)
				return;
			if (!drag.moved)
				svg.classList.add("dragging");
			drag.moved = true;
			self.tx = drag.tx + dx;
			self.ty = drag.ty + dy;
			self.apply();
		});
		window.addEventListener("pointerup", function () {
			if (drag && drag.moved) {
				svg.classList.remove("dragging");
				self.justDragged = true;
				setTimeout(function () { self.justDragged = false; }, 0);
			}
			drag = null;
		});
	}
	View.prototype.apply = function () {
		this.vp.setAttribute("transform", "translate(" + this.tx.toFixed(1) + "," + this.ty.toFixed(1) +
				     ") scale(" + this.k.toFixed(4) + ")");
	};
	// Shows the whole graph; unless @all, not smaller than readable, centred on the focus.
	View.prototype.fit = function (all) {
		var b = this.bounds, r = this.svg.getBoundingClientRect(), f = this.focusBox;
		if (!b || !r.width || !r.height)
			return;
		var w = b.x1 - b.x0 + 40, h = b.y1 - b.y0 + 40;
		this.k = Math.min(1.25, Math.max(0.08, Math.min(r.width / w, r.height / h)));
		this.tx = (r.width - (b.x1 - b.x0) * this.k) / 2 - b.x0 * this.k;
		this.ty = (r.height - (b.y1 - b.y0) * this.k) / 2 - b.y0 * this.k;
		if (!all && f && this.k < MIN_READABLE) {
			this.k = MIN_READABLE;
			this.tx = r.width / 2 - (f.x + f.w / 2) * this.k;
			this.ty = r.height / 2 - (f.y + NODE_H / 2) * this.k;
		}
		this.apply();
	};

	// Draws the neighbourhood of `focus`. style: {fill(v), sub(v), nodeClass(v), edgeClass(e),
	// edgeTitle(e), nodeTitle(v), edgeWidth(e)}; onPick(v) / onMore(m) on clicks.
	View.prototype.draw = function (g, focus, opts, style, onPick, onMore) {
		var hood = neighbourhood(g, focus, opts.up, opts.down, opts.fanout, opts.maxNodes, opts.path);
		var lay = layout(g, hood, style.sub), vp = this.vp, self = this;
		while (vp.firstChild)
			vp.removeChild(vp.firstChild);
		var ge = el("g", { "class": "edges" }, vp), gn = el("g", { "class": "nodes" }, vp);
		var byNode = new Map();
		function remember(v, path) {
			if (!byNode.has(v))
				byNode.set(v, []);
			byNode.get(v).push(path);
		}
		var labels = lay.edges.length <= 160;
		lay.edges.forEach(function (e) {
			var a = lay.idx.get(g.src[e]), b = lay.idx.get(g.dst[e]), d, cls = "edge";
			if (a === b) {	// recursion: a loop above the node
				var lx = a.x + a.w - 16, ly = a.y;
				d = "M" + lx + "," + ly + " C" + (lx - 10) + "," + (ly - 30) + " " + (lx + 26) + "," +
					(ly - 30) + " " + (lx + 12) + "," + ly;
				cls += " back";
			} else if (b.layer > a.layer) {
				var x1 = a.x + a.w, y1 = a.y + NODE_H / 2, x2 = b.x, y2 = b.y + NODE_H / 2, c = (x2 - x1) / 2;
				d = "M" + x1 + "," + y1 + " C" + (x1 + c) + "," + y1 + " " + (x2 - c) + "," + y2 + " " + x2 + "," + y2;
			} else {	// against the layer order: an arc below both nodes
				var sx = a.x + a.w / 2, sy = a.y + NODE_H, tx = b.x + b.w / 2, ty = b.y + NODE_H;
				var dip = Math.max(sy, ty) + 40;
				d = "M" + sx + "," + sy + " C" + sx + "," + dip + " " + tx + "," + dip + " " + tx + "," + ty;
				cls += " back";
			}
			cls += style.edgeClass(e);
			var p = el("path", { d: d, "class": cls, "stroke-width": style.edgeWidth(e).toFixed(2),
					     "marker-end": "url(#arrow)" }, ge);
			el("title", {}, p).textContent = style.edgeTitle(e);
			remember(g.src[e], p);
			remember(g.dst[e], p);
			if (labels && b.layer > a.layer) {
				var t = el("text", { "class": "elabel", x: ((a.x + a.w + b.x) / 2).toFixed(1),
						     y: ((a.y + b.y + NODE_H) / 2 - 3).toFixed(1), "text-anchor": "middle" }, ge);
				t.textContent = style.edgeLabel(e);
			}
		});
		lay.items.forEach(function (it) {
			var cls = "node" + (it.v === focus ? " focus" : "") + (it.more ? " more" : style.nodeClass(it.v));
			var n = el("g", { "class": cls, transform: "translate(" + it.x.toFixed(1) + "," + it.y.toFixed(1) + ")" }, gn);
			if (it.v >= 0)
				n.setAttribute("data-name", it.name);
			el("title", {}, n).textContent = it.more ? "show more of them (raises \u201cper node\u201d)" :
				style.nodeTitle(it.v);
			el("rect", { width: it.w.toFixed(1), height: NODE_H, fill: it.more ? "#eef0f3" : style.fill(it.v) }, n);
			el("text", { x: 7, y: 14 }, n).textContent = label(it.name);
			el("text", { x: 7, y: 28, "class": "sub" }, n).textContent = it.sub;
			n.addEventListener("click", function (ev) {
				ev.stopPropagation();
				if (self.justDragged)
					return;
				if (it.more)
					onMore(it.more);
				else
					onPick(it.v);
			});
			if (it.v >= 0) {
				n.addEventListener("mouseenter", function () {
					(byNode.get(it.v) || []).forEach(function (p) { p.classList.add("hl"); });
				});
				n.addEventListener("mouseleave", function () {
					(byNode.get(it.v) || []).forEach(function (p) { p.classList.remove("hl"); });
				});
			}
		});
		this.bounds = lay.bounds;
		var fi = lay.idx.get(focus);
		this.focusBox = fi ? { x: fi.x, y: fi.y, w: fi.w } : null;
		this.fit(!!opts.path);	// a path drawn in is seen whole
		return { nodes: hood.nodes.length, more: hood.more.reduce(function (s, m) { return s + m.count; }, 0),
			 edges: lay.edges.length };
	};

	return { View: View, neighbourhood: neighbourhood };
})();
