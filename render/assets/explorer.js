// SPDX-License-Identifier: MIT
// explorer.js - kmag's interactive call-graph page: reads the embedded data,
// fills the header (trace facts, lost events, filters), and wires the search
// with completion, the details of the focused function, the neighbourhood
// graph (explorer-graph.js), the sortable, filterable function table, the
// Calls view (explorer-calls.js) and the Errors panel (explorer-errors.js).
// Everything is built with textContent/setAttribute: names are never markup.
"use strict";
(function () {
	var D, G, N, diff, view, calls, errs, sites, current = -1;
	var STATUS = ["same", "grew", "shrank", "added", "removed"];

	function $(id) { return document.getElementById(id); }
	function make(tag, cls, text) {
		var e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	function fmtCount(n) { return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
	function fmtNs(ns) {
		var a = Math.abs(ns), s = ns < 0 ? "-" : "";
		if (a < 1000) return s + a + " ns";
		if (a < 1e6) return s + (a / 1e3).toFixed(3) + " us";
		if (a < 1e9) return s + (a / 1e6).toFixed(3) + " ms";
		return s + (a / 1e9).toFixed(3) + " s";
	}
	function signed(v, f) { return (v > 0 ? "+" : v < 0 ? "" : "\u00b10 ") + (v === 0 ? "" : f(v)); }

	// ---- data model ----

	function build() {
		D = JSON.parse($("kmag-data").textContent);
		diff = D.mode === "diff";
		var fn = D.fn, n = fn.name.length, ne = D.edge.src.length, i;
		N = n;
		G = { n: n, name: fn.name, src: D.edge.src, dst: D.edge.dst, outs: [], ins: [], ew: new Float64Array(ne) };
		for (i = 0; i < n; i++) {
			G.outs.push([]);
			G.ins.push([]);
		}
		for (i = 0; i < ne; i++) {
			G.outs[G.src[i]].push(i);
			G.ins[G.dst[i]].push(i);
			// rank neighbours by calls (the larger side in a diff, so both show)
			G.ew[i] = diff ? Math.max(D.edge.calls[i], D.edgeA.calls[i]) : D.edge.calls[i];
		}
		G.lower = fn.name.map(function (s) { return s.toLowerCase(); });
		G.index = new Map();
		fn.name.forEach(function (s, j) { G.index.set(s, j); });
		// log scale between the smallest and the largest non-zero value
		G.heatMax = 1;
		G.heatMin = Infinity;
		for (i = 0; i < n; i++) {
			var h = heatValue(i);
			G.heatMax = Math.max(G.heatMax, h);
			if (h > 0)
				G.heatMin = Math.min(G.heatMin, h);
		}
		if (!(G.heatMin < G.heatMax))
			G.heatMin = G.heatMax / 10;
		G.edgeMax = 1;
		for (i = 0; i < ne; i++)
			G.edgeMax = Math.max(G.edgeMax, G.ew[i]);
	}

	// (the page leaves out columns that would hold only zeros)
	function irq(e) { return D.edge.irq ? D.edge.irq[e] : 0; }
	function heatValue(v) { return D.hasTime ? D.fn.total[v] : D.fn.calls[v]; }
	/* the mean call: all timed calls, a recursion's inner ones too (total counts its outermost) */
	function avg(st, v) { return st.timed[v] ? st.sum[v] / st.timed[v] : 0; }
	// hits of kprobes/uprobes on the function (recorded next to a function tracer)
	function probeHits(v) { return D.fn.probe ? D.fn.probe[v] : 0; }
	function source(v) {
		var f = D.fn.file ? D.fn.file[v] : -1;
		if (f < 0)
			return "";
		return D.files[f] + (D.fn.line[v] ? ":" + D.fn.line[v] : "");
	}

	// ---- colours ----

	var RAMP = [[255, 247, 220], [254, 214, 118], [248, 150, 64], [232, 92, 58]];
	function ramp(t) {
		t = Math.max(0, Math.min(1, t)) * (RAMP.length - 1);
		var i = Math.min(RAMP.length - 2, Math.floor(t)), f = t - i, a = RAMP[i], b = RAMP[i + 1];
		return "rgb(" + [0, 1, 2].map(function (k) { return Math.round(a[k] + (b[k] - a[k]) * f); }).join(",") + ")";
	}
	function heat(v) {
		var h = heatValue(v);
		return h > 0 ? ramp(Math.log(h / G.heatMin) / Math.log(G.heatMax / G.heatMin)) : ramp(0);
	}
	function mix(rgb, w) {
		return "rgb(" + rgb.map(function (c) { return Math.round(255 - w * (255 - c)); }).join(",") + ")";
	}
	var RED = [244, 109, 93], BLUE = [93, 156, 244];
	function relChange(a, b) { var m = Math.max(a, b); return m ? Math.abs(b - a) / m : 0; }
	function diffFill(v) {
		var s = D.status[v];
		var a = D.hasTime ? D.fnA.total[v] : D.fnA.calls[v], b = D.hasTime ? D.fn.total[v] : D.fn.calls[v];
		if (D.fnA.calls[v] !== D.fn.calls[v]) {
			a = D.fnA.calls[v];
			b = D.fn.calls[v];
		}
		if (s === 3) return mix(RED, 1);
		if (s === 4) return mix(BLUE, 1);
		if (s === 1) return mix(RED, 0.25 + 0.6 * relChange(a, b));
		if (s === 2) return mix(BLUE, 0.25 + 0.6 * relChange(a, b));
		return "#f4f4f4";
	}

	// ---- header ----

	function lostLines(list, tag) {
		return list.map(function (c) {
			var pct = c.lost && c.events ? " (" + (100 * c.lost / (c.lost + c.events)).toFixed(1) + "%)" : "";
			return (tag ? tag + " " : "") + "CPU" + c.cpu + ": " +
				(c.unknown ? "events lost (count unknown)" : fmtCount(c.lost) + " events lost" + pct) +
				(c.gaps ? ", " + c.gaps + " gap" + (c.gaps === 1 ? "" : "s") + " in the data" : "") +
				"; calls around the gaps are counted as incomplete";
		});
	}

	function header() {
		var facts = $("facts");
		function fact(k, v) {
			if (v === null || v === undefined || v === "")
				return;
			var s = make("span");
			s.appendChild(document.createTextNode(k + " "));
			s.appendChild(make("b", null, v));
			facts.appendChild(s);
		}
		if (diff) {
			fact("A", D.a_input);
			fact("B", D.input);
			fact("tracers", D.a_tracer === D.tracer ? D.tracer : D.a_tracer + " / " + D.tracer);
			fact("events", fmtCount(D.a_events) + " / " + fmtCount(D.events));
			var cnt = [0, 0, 0, 0, 0];
			D.status.forEach(function (s) { cnt[s]++; });
			fact("functions", cnt[3] + " added, " + cnt[4] + " removed, " + cnt[1] + " grew, " +
			     cnt[2] + " shrank, " + cnt[0] + " unchanged");
		} else {
			fact("input", D.input);
			fact("tracer", D.tracer);
			fact("format", D.format);
			fact("events", fmtCount(D.events));
			if (D.spanNs)
				fact("span", fmtNs(D.spanNs));
			fact("functions", fmtCount(N));
			fact("edges", fmtCount(D.edge.src.length));
		}
		if (diff && D.a_release !== D.release) {
			// the kernels of A and B: a diff across them pairs renamed functions (kmag-diff(1))
			fact("kernels", "A " + (D.a_release || "unknown") + ", B " + (D.release || "unknown"));
			if (D.a_release && D.release)	// an unknown kernel may be the other one
				fact("note", "different kernels: functions are matched by name, " + fmtCount(D.renamed) +
				     " renamed or cloned ones paired with their twin (shown as \u201cA \u2192 B\u201d)");
		} else {
			fact("kernel", D.kernel);
		}
		fact("filters", D.filters || "none");
		if (D.pathFilter)
			fact("source path", D.pathFilter + " (" + fmtCount(N) + " of " + fmtCount(D.allFunctions) +
			     " functions)");
		if (!D.hasStacks)
			fact("note", "function tracer: callers only, no durations");
		var lines = lostLines(D.lost, diff ? "B" : "");
		if (diff)
			lines = lostLines(D.a_lost, "A").concat(lines);
		if (lines.length) {
			var box = $("lost");
			lines.forEach(function (l) { box.appendChild(make("div", null, l)); });
			box.hidden = false;
		}
		$("footer").textContent = "Generated by " + D.generator + ". Click a function to focus it, drag to " +
			"pan, scroll to zoom; Back returns to the previous one." +
			(D.symbolMap ? "" : " No symbol map was given, so source files are unknown (kmag generate-symbol-map makes one; pass it with --symbol-file-path MAP).");
	}

	function legend() {
		var box = $("legend");
		if (diff) {
			[["added", mix(RED, 1)], ["grew", mix(RED, 0.6)], ["same", "#f4f4f4"], ["shrank", mix(BLUE, 0.6)],
			 ["removed", mix(BLUE, 1)]].forEach(function (p) {
				var sw = make("span", "sw");
				sw.style.background = p[1];
				box.appendChild(sw);
				box.appendChild(document.createTextNode(p[0]));
			});
			return;
		}
		var bar = make("span", "bar");
		bar.style.background = "linear-gradient(to right," + [0, 0.33, 0.66, 1].map(ramp).join(",") + ")";
		box.appendChild(document.createTextNode((D.hasTime ? "total time: " + fmtNs(G.heatMin) :
							  "calls: " + fmtCount(G.heatMin)) + " (log)"));
		box.appendChild(bar);
		box.appendChild(document.createTextNode(D.hasTime ? fmtNs(G.heatMax) : fmtCount(G.heatMax)));
		errs.legend(box);
	}

	// ---- search with completion ----

	var comp = { items: [], active: -1 };
	function complete(q) {
		var ul = $("completions"), lq = q.trim().toLowerCase(), res = [], i;
		while (ul.firstChild)
			ul.removeChild(ul.firstChild);
		comp.items = [];
		comp.active = -1;
		if (!lq) {
			ul.hidden = true;
			return;
		}
		for (i = 0; i < N; i++) {
			var p = G.lower[i].indexOf(lq);
			if (p >= 0)
				res.push([G.lower[i] === lq ? 0 : p === 0 ? 1 : 2, i, p]);
		}
		res.sort(function (a, b) {
			return a[0] - b[0] || D.fn.calls[b[1]] - D.fn.calls[a[1]] || (G.name[a[1]] < G.name[b[1]] ? -1 : 1);
		});
		res.slice(0, 14).forEach(function (r) {
			var li = make("li"), n = make("span", "n"), name = G.name[r[1]];
			li.setAttribute("role", "option");
			li.setAttribute("data-name", name);
			n.appendChild(document.createTextNode(name.substring(0, r[2])));
			n.appendChild(make("mark", null, name.substring(r[2], r[2] + lq.length)));
			n.appendChild(document.createTextNode(name.substring(r[2] + lq.length)));
			li.appendChild(n);
			li.appendChild(make("span", "c", fmtCount(D.fn.calls[r[1]]) + " calls"));
			li.addEventListener("mousedown", function (e) {
				e.preventDefault();
				pick(r[1]);
			});
			ul.appendChild(li);
			comp.items.push(r[1]);
		});
		if (!res.length)
			ul.appendChild(make("li", "none", "no function matches"));
		else if (res.length > 14)
			ul.appendChild(make("li", "none", (res.length - 14) + " more; type more of the name"));
		ul.hidden = false;
	}
	function pick(v) {
		$("search").value = "";
		complete("");
		$("search").blur();
		go(v);
	}
	function searchKeys(e) {
		var lis = $("completions").querySelectorAll("li[data-name]");
		if (e.key === "ArrowDown" || e.key === "ArrowUp") {
			e.preventDefault();
			if (!lis.length)
				return;
			comp.active = (comp.active + (e.key === "ArrowDown" ? 1 : lis.length - 1)) % lis.length;
			lis.forEach(function (li, j) { li.classList.toggle("active", j === comp.active); });
		} else if (e.key === "Enter") {
			e.preventDefault();
			var exact = G.index.get(e.target.value.trim());
			if (comp.active >= 0)
				pick(comp.items[comp.active]);
			else if (exact !== undefined)
				pick(exact);
			else if (comp.items.length)
				pick(comp.items[0]);
		} else if (e.key === "Escape") {
			complete("");
		}
	}

	// ---- focus: details and graph ----

	function go(v) {
		location.hash = "fn=" + encodeURIComponent(G.name[v]);	// hashchange calls focus()
		if (current === v)
			focus(v);
	}

	function statRow(t, k, v) {
		var tr = make("tr");
		tr.appendChild(make("td", null, k));
		tr.appendChild(make("td", null, v));
		t.appendChild(tr);
	}

	function relList(ul, countEl, edges, other) {
		while (ul.firstChild)
			ul.removeChild(ul.firstChild);
		var list = edges.slice().sort(function (a, b) { return G.ew[b] - G.ew[a]; });
		countEl.textContent = "(" + list.length + ")";
		list.slice(0, 60).forEach(function (e) {
			var v = other(e), li = make("li");
			li.setAttribute("data-name", G.name[v]);
			li.appendChild(make("span", "n", G.name[v] + (irq(e) ? " (irq)" : "")));
			var c = diff ? fmtCount(D.edgeA.calls[e]) + " \u2192 " + fmtCount(D.edge.calls[e]) :
				fmtCount(D.edge.calls[e]) + (D.hasTime && D.edge.total[e] ? ", " + fmtNs(D.edge.total[e]) : "");
			li.appendChild(make("span", "c", c));
			if (diff && D.edgeStatus[e])
				li.classList.add(D.edgeStatus[e] === 1 || D.edgeStatus[e] === 3 ? "grow" : "shrink");
			li.addEventListener("click", function () { go(v); });
			ul.appendChild(li);
		});
		if (list.length > 60)
			ul.appendChild(make("li", "more", "\u2026 " + (list.length - 60) + " more (see the graph)"));
		if (!list.length)
			ul.appendChild(make("li", "more", "none traced"));
	}

	// The durations' log2 histogram as funclatency prints it: h = [first slot, counts...],
	// slot i holding 2^(i-1) .. 2^i - 1 ns (slot 1 also 0 ns).
	function histogram(h) {
		var t = $("details-hist");
		while (t.firstChild)
			t.removeChild(t.firstChild);
		t.hidden = !h;
		if (!h)
			return;
		var most = Math.max.apply(null, h.slice(1));
		for (var k = 1; k < h.length; k++) {
			var i = h[0] + k - 1, lo = Math.pow(2, i - 1), hi = Math.pow(2, i) - 1;
			var tr = make("tr"), bar = make("td", "bar"), span = make("span");
			if (i === 1)
				lo = 0;
			tr.appendChild(make("td", "r", fmtCount(lo) + " \u2192 " + fmtCount(hi) + " ns"));
			tr.appendChild(make("td", "r", fmtCount(h[k])));
			span.style.width = (most ? Math.round(100 * h[k] / most) : 0) + "%";
			bar.appendChild(span);
			tr.appendChild(bar);
			t.appendChild(tr);
		}
	}

	function details(v) {
		$("details-name").textContent = G.name[v];
		var src = source(v);
		$("details-source").textContent = src || (D.symbolMap ? "source file not in the symbol map" : "");
		var t = $("details-stats");
		while (t.firstChild)
			t.removeChild(t.firstChild);
		if (diff) {
			statRow(t, "status", STATUS[D.status[v]]);
			statRow(t, "calls", fmtCount(D.fnA.calls[v]) + " \u2192 " + fmtCount(D.fn.calls[v]) + "  (" +
				signed(D.fn.calls[v] - D.fnA.calls[v], fmtCount) + ")");
			if (D.hasTime) {
				statRow(t, "total", fmtNs(D.fnA.total[v]) + " \u2192 " + fmtNs(D.fn.total[v]) + "  (" +
					signed(D.fn.total[v] - D.fnA.total[v], fmtNs) + ")");
				statRow(t, "self", fmtNs(D.fnA.self[v]) + " \u2192 " + fmtNs(D.fn.self[v]));
			}
		} else {
			statRow(t, "calls", fmtCount(D.fn.calls[v]));
			if (D.hasTime) {
				statRow(t, "total", fmtNs(D.fn.total[v]));
				statRow(t, "self", fmtNs(D.fn.self[v]));
				statRow(t, "avg", fmtNs(Math.round(avg(D.fn, v))));
				statRow(t, "max", fmtNs(D.fn.max[v]));
				if (D.fn.p50 && D.fn.p50[v] !== null)
					statRow(t, "p50 / p90 / p99", fmtNs(D.fn.p50[v]) + " / " + fmtNs(D.fn.p90[v]) +
						" / " + fmtNs(D.fn.p99[v]));
			}
			if (D.fn.inc[v])
				statRow(t, "incomplete", fmtCount(D.fn.inc[v]));
			if (probeHits(v))
				statRow(t, "probe hits", fmtCount(probeHits(v)));
		}
		histogram(diff || !D.fn.hist ? null : D.fn.hist[v]);
		relList($("callers"), $("callers-count"), G.ins[v], function (e) { return G.src[e]; });
		sites.show(v);
		relList($("callees"), $("callees-count"), G.outs[v], function (e) { return G.dst[e]; });
	}

	function num(id, lo, hi) {
		var x = parseInt($(id).value, 10);
		return isNaN(x) ? lo : Math.max(lo, Math.min(hi, x));
	}

	var style = {
		fill: function (v) { return diff ? diffFill(v) : heat(v); },
		sub: function (v) {
			if (diff)
				return fmtCount(D.fnA.calls[v]) + " \u2192 " + fmtCount(D.fn.calls[v]) + " calls";
			// seen only as the caller of traced functions (function tracer)
			if (!D.fn.calls[v])
				return "not traced";
			return fmtCount(D.fn.calls[v]) + " calls" + (D.hasTime ? " \u00b7 " + fmtNs(D.fn.total[v]) : "");
		},
		nodeClass: function (v) {
			return diff ? " " + STATUS[D.status[v]] : (probeHits(v) ? " probed" : "") + errs.nodeClass(v);
		},
		nodeTitle: function (v) {
			var s = G.name[v] + "\n" + style.sub(v);
			if (source(v))
				s += "\n" + source(v);
			if (probeHits(v))
				s += "\nprobe: " + fmtCount(probeHits(v)) + " hits";
			return s + errs.nodeTitle(v);
		},
		edgeClass: function (e) {
			var c = (irq(e) ? " irq" : "") + errs.edgeClass(e);
			if (diff) {
				var s = D.edgeStatus[e];
				c += s === 1 || s === 3 ? " grow" : s === 2 || s === 4 ? " shrink" : "";
				if (s === 4)
					c += " removed";
			}
			return c;
		},
		edgeLabel: function (e) {
			return diff ? fmtCount(D.edgeA.calls[e]) + "\u2192" + fmtCount(D.edge.calls[e]) : fmtCount(D.edge.calls[e]);
		},
		edgeTitle: function (e) {
			var s = G.name[G.src[e]] + " \u2192 " + G.name[G.dst[e]] + "\n";
			if (diff)
				return s + STATUS[D.edgeStatus[e]] + ": " + fmtCount(D.edgeA.calls[e]) + " \u2192 " +
					fmtCount(D.edge.calls[e]) + " calls";
			return s + fmtCount(D.edge.calls[e]) + " calls" +
				(D.hasTime && D.edge.total[e] ? ", " + fmtNs(D.edge.total[e]) : "") +
				(irq(e) ? " (in interrupt context)" : "");
		},
		edgeWidth: function (e) { return 1 + 3 * Math.log1p(G.ew[e]) / Math.log1p(G.edgeMax); },
	};

	function drawGraph() {
		if (current < 0)
			return;
		var info = view.draw(G, current, {
			up: num("depth-up", 0, 8), down: num("depth-down", 0, 8),
			fanout: num("fanout", 1, 200), maxNodes: num("max-nodes", 10, 2000),
			path: errs.pathFor(current),
		}, style, go, function () {
			$("fanout").value = Math.min(200, num("fanout", 1, 200) * 2);
			drawGraph();
		});
		$("graph-info").textContent = info.nodes + " functions, " + info.edges + " call edges shown" +
			(info.more ? "; " + info.more + " more not shown" : "");
	}

	function focus(v) {
		if (v < 0 || v >= N)
			return;
		current = v;
		errs.focused(v);
		details(v);
		drawGraph();
		markRow();
		calls.show(v);
		document.title = G.name[v] + " \u2014 " + $("page-title").textContent;
	}

	function fromHash() {
		var m = /^#fn=(.*)$/.exec(location.hash);
		if (!m)
			return -1;
		var v = G.index.get(decodeURIComponent(m[1]));
		return v === undefined ? -1 : v;
	}

	// ---- function table ----

	var table = { cols: [], sortKey: null, desc: true, rows: [], shown: 0, rowOf: new Map(), marked: null };
	function columns() {
		var c = [{ key: "name", title: "Function", left: true, get: function (v) { return G.name[v]; } }];
		if (diff) {
			c.push({ key: "status", title: "Status", left: true, get: function (v) { return D.status[v]; },
				 fmt: function (x) { return STATUS[x]; } });
			c.push({ key: "ca", title: "Calls A", get: function (v) { return D.fnA.calls[v]; }, fmt: fmtCount, side: 3 });
			c.push({ key: "cb", title: "Calls B", get: function (v) { return D.fn.calls[v]; }, fmt: fmtCount, side: 4 });
			c.push({ key: "dc", title: "\u0394 calls", abs: true, get: function (v) { return D.fn.calls[v] - D.fnA.calls[v]; },
				 fmt: function (x) { return signed(x, fmtCount); }, sign: true });
			if (D.hasTime) {
				c.push({ key: "ta", title: "Total A", get: function (v) { return D.fnA.total[v]; }, fmt: fmtNs, side: 3 });
				c.push({ key: "tb", title: "Total B", get: function (v) { return D.fn.total[v]; }, fmt: fmtNs, side: 4 });
				c.push({ key: "dt", title: "\u0394 total", abs: true, get: function (v) { return D.fn.total[v] - D.fnA.total[v]; },
					 fmt: function (x) { return signed(x, fmtNs); }, sign: true });
			}
		} else {
			c.push({ key: "calls", title: "Calls", get: function (v) { return D.fn.calls[v]; }, fmt: fmtCount });
			if (D.hasTime) {
				c.push({ key: "total", title: "Total", get: function (v) { return D.fn.total[v]; }, fmt: fmtNs });
				c.push({ key: "self", title: "Self", get: function (v) { return D.fn.self[v]; }, fmt: fmtNs });
				c.push({ key: "avg", title: "Avg", get: function (v) { return avg(D.fn, v); },
					 fmt: function (x) { return fmtNs(Math.round(x)); } });
				c.push({ key: "max", title: "Max", get: function (v) { return D.fn.max[v]; }, fmt: fmtNs });
			}
			c.push({ key: "inc", title: "Incomplete", get: function (v) { return D.fn.inc[v]; }, fmt: fmtCount });
		}
		c.push({ key: "file", title: "Source file", left: true, src: true, get: source });
		return c;
	}

	function pathMatcher(spec) {
		var pats = spec.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
		if (!pats.length)
			return null;
		var res = pats.map(function (p) {
			var anchored = p[0] === "/";
			if (anchored)
				p = p.substring(1);
			var body = p.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
			return new RegExp(anchored ? "^" + body : body);
		});
		return function (path) { return res.some(function (r) { return r.test(path); }); };
	}

	function nameMatcher(q) {
		q = q.trim();
		if (!q)
			return null;
		var m = /^\/(.*)\/$/.exec(q);
		if (m) {
			try {
				var re = new RegExp(m[1], "i");
				return function (v) { return re.test(G.name[v]); };
			} catch (err) {
				return function () { return false; };
			}
		}
		var lq = q.toLowerCase();
		return function (v) { return G.lower[v].indexOf(lq) >= 0; };
	}

	function refreshTable() {
		var byName = nameMatcher($("name-filter").value), byPath = pathMatcher($("path-filter").value);
		var st = $("status-filter").value, col = table.cols.find(function (c) { return c.key === table.sortKey; });
		var rows = [];
		for (var v = 0; v < N; v++) {
			if (byName && !byName(v))
				continue;
			if (byPath && !(source(v) && byPath(source(v))))
				continue;
			if (diff && st && (st === "changed" ? D.status[v] === 0 : D.status[v] !== +st))
				continue;
			rows.push(v);
		}
		var dir = table.desc ? -1 : 1;
		rows.sort(function (a, b) {
			var x = col.get(a), y = col.get(b);
			if (col.abs) {
				x = Math.abs(x);
				y = Math.abs(y);
			}
			if (x < y) return -dir;
			if (x > y) return dir;
			return G.name[a] < G.name[b] ? -1 : 1;
		});
		table.rows = rows;
		table.shown = 0;
		table.rowOf = new Map();
		table.marked = null;
		var body = $("table-body");
		while (body.firstChild)
			body.removeChild(body.firstChild);
		moreRows();
		$("table-info").textContent = fmtCount(rows.length) + " of " + fmtCount(N) + " functions";
		table.cols.forEach(function (c) {
			c.th.classList.toggle("sorted", c.key === table.sortKey);
			c.th.classList.toggle("asc", c.key === table.sortKey && !table.desc);
		});
	}

	// The first rows fill a screen; more come on request (a long table slows every layout).
	function moreRows() {
		var body = $("table-body"), frag = document.createDocumentFragment();
		var end = Math.min(table.rows.length, table.shown + (table.shown ? 200 : 60));
		for (var i = table.shown; i < end; i++) {
			var v = table.rows[i], tr = make("tr");
			tr.setAttribute("data-name", G.name[v]);
			table.rowOf.set(v, tr);
			tr.addEventListener("click", go.bind(null, v));
			table.cols.forEach(function (c) {
				var x = c.get(v), td = make("td", c.key === "name" ? "fn" : c.src ? "src" : c.left ? "left" : "");
				if (c.key === "name") {
					var sw = make("span", "heat");
					sw.style.background = style.fill(v);
					td.appendChild(sw);
					td.appendChild(document.createTextNode(x));
					td.title = x;
				} else if (c.side && D.status[v] === c.side) {
					td.textContent = "\u2013";	// the function is not in that trace
				} else {
					td.textContent = c.fmt ? c.fmt(x) : x;
				}
				if (c.sign && x)
					td.classList.add(x > 0 ? "grow" : "shrink");
				if (c.key === "status" && x)
					td.classList.add(x === 1 || x === 3 ? "grow" : "shrink");
				tr.appendChild(td);
			});
			frag.appendChild(tr);
		}
		body.appendChild(frag);
		table.shown = end;
		$("more").hidden = table.shown >= table.rows.length;
		$("more").textContent = "Show more (" + fmtCount(table.rows.length - table.shown) + " left)";
		markRow();
	}

	// Brings function @v's row into the table (clearing filters that hide it) and into view.
	function reveal(v) {
		if (table.rows.indexOf(v) < 0) {
			$("name-filter").value = "";
			$("path-filter").value = "";
			$("status-filter").value = "";
			refreshTable();
		}
		var i = table.rows.indexOf(v);
		while (i >= table.shown)
			moreRows();
		var tr = table.rowOf.get(v);
		if (tr)
			tr.scrollIntoView({ block: "center" });
	}

	// A link to @v from the Calls view: focus it, show the graph (or its table row).
	function jump(v, toTable) {
		go(v);
		if (current !== v)
			focus(v);
		if (toTable)
			reveal(v);
		else
			$("view").scrollIntoView({ block: "nearest" });
	}

	// Highlights the focused function's row (rows are looked up, not scanned).
	function markRow() {
		if (table.marked)
			table.marked.classList.remove("current");
		table.marked = current >= 0 ? table.rowOf.get(current) || null : null;
		if (table.marked)
			table.marked.classList.add("current");
	}

	function setupTable() {
		table.cols = columns();
		var head = $("table-head");
		table.cols.forEach(function (c) {
			var th = make("th", c.left ? "left" : "", c.title);
			th.setAttribute("data-key", c.key);
			th.addEventListener("click", function () {
				if (table.sortKey === c.key)
					table.desc = !table.desc;
				else {
					table.sortKey = c.key;
					table.desc = !c.left;
				}
				refreshTable();
			});
			c.th = th;
			head.appendChild(th);
		});
		table.sortKey = diff ? (D.hasTime ? "dt" : "dc") : D.hasTime ? "total" : "calls";
		if (diff)
			$("status-filter-box").hidden = false;
		if (!D.symbolMap) {
			$("path-filter").disabled = true;
			$("path-filter").title = "no symbol map: give one with --symbol-file-path to filter by source path";
		}
		var timer = null;
		function later() {
			clearTimeout(timer);
			timer = setTimeout(refreshTable, 120);
		}
		$("name-filter").addEventListener("input", later);
		$("path-filter").addEventListener("input", later);
		$("status-filter").addEventListener("change", refreshTable);
		$("more").addEventListener("click", moreRows);
		refreshTable();
	}

	function startNode() {
		var v = fromHash();
		if (v >= 0)
			return v;
		if (D.focus && G.index.has(D.focus))
			return G.index.get(D.focus);
		var best = -1, bv = -1;
		for (var i = 0; i < N; i++) {
			var x = diff ? Math.abs(D.hasTime ? D.fn.total[i] - D.fnA.total[i] : D.fn.calls[i] - D.fnA.calls[i]) :
				heatValue(i);
			if (x > bv) {
				bv = x;
				best = i;
			}
		}
		return best;
	}

	function boot() {
		var tm = { start: performance.now() };
		build();
		tm.build = performance.now();
		header();
		errs = KE.setup(D, { $: $, make: make, fmtNs: fmtNs, fmtCount: fmtCount, jump: jump,
				     outs: function (v) { return G.outs[v]; } });
		legend();
		view = new KG.View($("graph"), $("viewport"));
		var s = $("search");
		s.addEventListener("input", function () { complete(s.value); });
		s.addEventListener("keydown", searchKeys);
		s.addEventListener("blur", function () { setTimeout(function () { complete(""); }, 150); });
		["depth-up", "depth-down", "fanout", "max-nodes"].forEach(function (id) {
			$(id).addEventListener("change", drawGraph);
		});
		$("fit").addEventListener("click", function () { view.fit(true); });
		$("back").addEventListener("click", function () { history.back(); });
		window.addEventListener("hashchange", function () {
			var v = fromHash();
			if (v >= 0 && v !== current)
				focus(v);
		});
		window.addEventListener("resize", function () { view.fit(false); });
		setupTable();
		calls = KC.setup(D, { $: $, make: make, fmtNs: fmtNs, fmtCount: fmtCount, jump: jump });
		sites = KS.setup(D, { $: $, make: make, fmtCount: fmtCount, go: go });
		tm.table = performance.now();
		if (N) {
			var v = startNode();
			if (fromHash() !== v)	// give the first function a history entry of its own
				location.replace("#fn=" + encodeURIComponent(G.name[v]));
			focus(v);
		} else {
			$("details-name").textContent = "The trace holds no function calls.";
		}
		tm.focus = performance.now();
		window.kmagTimings = tm;	// for benchmarks (bench/page-load.js)
		document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
		document.body.setAttribute("data-ready", "1");
	}

	function fatal(err) {
		var box = $("lost");
		box.textContent = "kmag explorer could not start: " + err.message;
		box.hidden = false;
		throw err;
	}

	if (document.readyState === "loading")
		document.addEventListener("DOMContentLoaded", function () { try { boot(); } catch (e) { fatal(e); } });
	else
		try { boot(); } catch (e) { fatal(e); }
})();
