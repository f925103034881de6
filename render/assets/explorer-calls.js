// SPDX-License-Identifier: MIT
// explorer-calls.js - the explorer's Calls view: the kept calls of the
// selected function (sortable, filterable by duration, errors and task) and
// the call tree of the call clicked, foldable by click and keyboard, each
// function in it a link to its node in the graph and its row in the table.
// The data is D.calls (render/html-calls.c): the trees are one flat array of
// nodes in preorder, each giving the distance back to its parent, so a
// call's subtree is the run of nodes up to the next one at its depth or above.
// Everything is built with textContent/setAttribute: names are never markup.
"use strict";
var KC = (function () {
	var WHY = ["slowest", "failing", "first"];
	var FLAG = [[1, "entry not in the trace"], [2, "exit not in the trace"], [4, "events lost meanwhile"]];

	// "10us", "1.5ms", "2s", "800ns"; a bare number is in microseconds (as --min-duration)
	function parseDur(s) {
		var m = /^\s*([0-9]*\.?[0-9]+)\s*(ns|us|\u00b5s|ms|s)?\s*$/.exec(s);
		if (!m)
			return null;
		var f = { ns: 1, us: 1e3, "\u00b5s": 1e3, ms: 1e6, s: 1e9 }[m[2] || "us"];
		return parseFloat(m[1]) * f;
	}

	// [node, value, node, value, ...] (rare fields) as a Map
	function pairs(a) {
		var m = new Map();
		for (var i = 0; a && i + 1 < a.length; i += 2)
			m.set(a[i], a[i + 1]);
		return m;
	}

	function setup(D, h) {
		var C = D.calls, sec = h.$("calls");
		if (!C)
			return { show: function () {} };	// a diff page or a page made without calls
		sec.hidden = false;
		var N = D.fn.name.length, nc = C.call.node.length, nn = C.node.fn.length;
		var slot = new Map(), flags = pairs(C.node.flags), more = pairs(C.node.more), callOf = new Map();
		var argsOf = pairs(C.node.args), siteOf = pairs(C.node.site), i;
		C.fn.f.forEach(function (v, i) { slot.set(v, i); });
		for (i = 0; i < nc; i++)
			callOf.set(C.call.node[i], i);
		var st = { fn: -1, rows: [], sortKey: "dur", desc: true, tree: null, cols: [] };

		function fnName(ref) { return ref < 0 ? "(unknown)" : ref < N ? D.fn.name[ref] : C.xname[ref - N]; }
		function err(k) { return C.hasRet && typeof C.node.r[k] === "number" && C.node.r[k] < 0; }
		function fmtRet(k) {
			var r = C.node.r[k];
			if (r === null || r === undefined)
				return "";
			if (typeof r === "string")
				return r;
			if (r < 0)
				return r + (C.errname[String(r)] ? " " + C.errname[String(r)] : "");
			return "0x" + r.toString(16);
		}
		function fmtDur(k) { return C.node.d[k] < 0 ? "(no exit)" : h.fmtNs(C.node.d[k]); }
		function task(c) {
			var p = C.call.pid[c], n = C.comm[String(p)];
			return p < 0 ? "?" : (n !== undefined ? n + "-" : "") + p;
		}
		function startS(k) { return C.node.t[k] < 0 ? "?" : ((C.t0 + C.node.t[k]) / 1e9).toFixed(6); }
		function treeEnd(c) { return c + 1 < nc ? C.call.node[c + 1] : nn; }

		// ---- the list of calls ----

		function columns() {
			var c = [
				{ key: "start", title: "Start (s)", get: function (c) { return C.node.t[C.call.node[c]]; },
				  fmt: function (c) { return startS(C.call.node[c]); } },
				{ key: "task", title: "Task", left: true, get: task, fmt: task },
				{ key: "cpu", title: "CPU", get: function (c) { return C.call.cpu[c]; } },
				{ key: "dur", title: "Duration", get: function (c) { return C.node.d[C.call.node[c]]; },
				  fmt: function (c) { return fmtDur(C.call.node[c]); } },
			];
			if (C.hasRet)
				c.push({ key: "ret", title: "Return", left: true,
					 get: function (c) { var r = C.node.r[C.call.node[c]]; return typeof r === "number" ? r : 0; },
					 fmt: function (c) { return fmtRet(C.call.node[c]); } });
			if (argsOf.size)
				c.push({ key: "args", title: "Arguments", left: true, get: function (c) { return argsOf.get(C.call.node[c]) || ""; } });
			if (siteOf.size)
				c.push({ key: "site", title: "Called from", left: true, get: function (c) { return siteOf.get(C.call.node[c]) || ""; } });
			c.push({ key: "inside", title: "Calls inside", get: function (c) { return C.call.inside[c]; },
				 fmt: function (c) { return h.fmtCount(C.call.inside[c]); } });
			c.push({ key: "why", title: "Kept as", left: true, get: function (c) { return C.call.why[c]; },
				 fmt: function (c) {
					 return WHY.filter(function (w, b) { return C.call.why[c] & (1 << b); }).join(", ");
				 } });
			return c;
		}

		function keptLine(s) {
			var seen = C.fn.seen[s], kept = C.fn.cn[s], parts = [];
			if (kept === seen)
				return "all " + h.fmtCount(seen) + " calls" + (C.fn.fail[s] ? ", " + h.fmtCount(C.fn.fail[s]) + " failing" : "");
			if (C.fn.ks[s])
				parts.push("the " + h.fmtCount(C.fn.ks[s]) + " slowest");
			if (C.fn.fail[s])
				parts.push(C.fn.kf[s] === C.fn.fail[s] ? "all " + h.fmtCount(C.fn.fail[s]) + " failing" :
					   "the first " + h.fmtCount(C.fn.kf[s]) + " of " + h.fmtCount(C.fn.fail[s]) + " failing");
			if (C.fn.k1[s])
				parts.push("the first " + h.fmtCount(C.fn.k1[s]));
			return "showing " + h.fmtCount(kept) + " of " + h.fmtCount(seen) + " calls" +
				(parts.length ? ": " + parts.join(", ") : "");
		}

		function show(v) {
			st.fn = v;
			var s = slot.has(v) ? slot.get(v) : -1;
			h.$("calls-of").textContent = "of " + D.fn.name[v];
			var kept = h.$("calls-kept");
			if (s < 0) {
				kept.textContent = D.tracer === "function" ?
					"Individual calls need a function_graph trace (this one was recorded with the function tracer)." :
					"No call of this function ended in the trace.";
			} else {
				kept.textContent = keptLine(s) + "; call trees up to " + h.fmtCount(C.kept.treeMax) + " calls each" +
					(C.nodes >= C.kept.budget ? ", the less slow ones shorter to fit the page's " +
					 h.fmtCount(C.kept.budget) + " calls in all trees" : "") +
					(more.size ? "; a cut line says how many calls it leaves out." : ".");
			}
			refresh();
		}

		function filterFn() {
			var lo = parseDur(h.$("calls-min").value), hi = parseDur(h.$("calls-max").value);
			var errs = h.$("calls-errors").checked, q = h.$("calls-task").value.trim().toLowerCase();
			h.$("calls-min").classList.toggle("bad", h.$("calls-min").value.trim() !== "" && lo === null);
			h.$("calls-max").classList.toggle("bad", h.$("calls-max").value.trim() !== "" && hi === null);
			return function (c) {
				var k = C.call.node[c], d = C.node.d[k];
				if (lo !== null && !(d >= lo))
					return false;
				if (hi !== null && !(d >= 0 && d <= hi))
					return false;
				if (errs && !err(k))
					return false;
				return !q || task(c).toLowerCase().indexOf(q) >= 0;
			};
		}

		function refresh() {
			var s = slot.has(st.fn) ? slot.get(st.fn) : -1, rows = [], keep = filterFn();
			if (s >= 0)
				for (var c = C.fn.cs[s]; c < C.fn.cs[s] + C.fn.cn[s]; c++)
					if (keep(c))
						rows.push(c);
			var col = st.cols.find(function (x) { return x.key === st.sortKey; }), dir = st.desc ? -1 : 1;
			rows.sort(function (a, b) {
				var x = col.get(a), y = col.get(b);
				if (x < y) return -dir;
				if (x > y) return dir;
				return a - b;
			});
			st.rows = rows;
			var body = h.$("calls-body"), frag = document.createDocumentFragment();
			while (body.firstChild)
				body.removeChild(body.firstChild);
			rows.forEach(function (c) {
				var tr = h.make("tr");
				tr.setAttribute("data-call", c);
				if (err(C.call.node[c]))
					tr.classList.add("err");
				if (st.tree && st.tree.call === c)
					tr.classList.add("current");
				st.cols.forEach(function (x) {
					tr.appendChild(h.make("td", x.left ? "left" : "", x.fmt ? x.fmt(c) : String(x.get(c))));
				});
				tr.tabIndex = 0;	// Tab reaches the calls, Enter opens one (and moves into its tree)
				tr.addEventListener("click", function () { openCall(c); });
				tr.addEventListener("keydown", function (e) {
					if (e.key !== "Enter")
						return;
					e.preventDefault();
					openCall(c);
					select(0);
				});
				frag.appendChild(tr);
			});
			body.appendChild(frag);
			h.$("calls-info").textContent = s < 0 ? "" : h.fmtCount(rows.length) + " of " + h.fmtCount(C.fn.cn[s]) + " kept calls";
			st.cols.forEach(function (x) {
				x.th.classList.toggle("sorted", x.key === st.sortKey);
				x.th.classList.toggle("asc", x.key === st.sortKey && !st.desc);
			});
		}

		// ---- the call tree ----

		function openCall(c) {
			var t0 = performance.now(), lo = C.call.node[c], hi = treeEnd(c), n = hi - lo;
			var size = new Int32Array(n).fill(1), depth = new Int32Array(n), k;
			for (k = 1; k < n; k++)
				depth[k] = depth[k - C.node.up[lo + k]] + 1;
			for (k = n - 1; k > 0; k--)
				size[k - C.node.up[lo + k]] += size[k];
			var folded = new Set();
			if (n > 200)	// a long tree opens two levels deep
				for (k = 0; k < n; k++)
					if (depth[k] >= 2 && size[k] > 1)
						folded.add(k);
			st.tree = { call: c, lo: lo, n: n, size: size, depth: depth, folded: folded, cur: 0 };
			Array.prototype.forEach.call(h.$("calls-body").children, function (tr) {
				tr.classList.toggle("current", +tr.getAttribute("data-call") === c);
			});
			var title = h.$("calltree-title");
			title.textContent = fnName(C.node.fn[lo]) + " \u2014 " + task(c) + " on CPU" + C.call.cpu[c] +
				" at " + startS(lo) + " s, " + fmtDur(lo) + "; " + h.fmtCount(C.call.inside[c]) +
				" calls inside" + (C.call.inside[c] + 1 > n ? ", " + h.fmtCount(n - 1) + " of them kept" : "");
			h.$("calltree-help").hidden = false;
			renderTree();
			h.$("calltree").setAttribute("data-call", c);
			window.kmagCallTreeMs = performance.now() - t0;	// for benchmarks (bench/calls-bench.sh)
		}

		function row(k) {
			var T = st.tree, g = T.lo + k, ref = C.node.fn[g], has = T.size[k] > 1;
			var r = h.make("div", "tn"), m;
			r.setAttribute("role", "treeitem");
			r.setAttribute("aria-level", T.depth[k] + 1);
			r.setAttribute("data-k", k);
			r.setAttribute("data-name", fnName(ref));
			r.tabIndex = k === T.cur ? 0 : -1;
			if (k === T.cur)
				r.classList.add("cur");
			if (has)
				r.setAttribute("aria-expanded", T.folded.has(k) ? "false" : "true");
			r.style.paddingLeft = (4 + 16 * T.depth[k]) + "px";
			var tw = h.make("span", "tw", has ? (T.folded.has(k) ? "\u25b8" : "\u25be") : "");
			tw.addEventListener("click", function (e) { e.stopPropagation(); toggle(k); });
			r.appendChild(tw);
			r.appendChild(h.make("span", "ts", C.node.t[g] < 0 || C.node.t[T.lo] < 0 ? "" :
					     "+" + h.fmtNs(C.node.t[g] - C.node.t[T.lo])));
			if (ref >= 0 && ref < N) {
				var a = h.make("a", "fn", fnName(ref));
				a.href = "#fn=" + encodeURIComponent(fnName(ref));
				a.title = "show " + fnName(ref) + " in the graph";
				a.addEventListener("click", function (e) { e.preventDefault(); e.stopPropagation(); h.jump(ref, false); });
				r.appendChild(a);
				var tl = h.make("a", "tl", "table");
				tl.href = a.href;
				tl.title = "show " + fnName(ref) + " in the function table";
				tl.addEventListener("click", function (e) { e.preventDefault(); e.stopPropagation(); h.jump(ref, true); });
			} else {
				r.appendChild(h.make("span", "fn", fnName(ref)));
			}
			if (argsOf.has(g))
				r.appendChild(h.make("span", "args", "(" + argsOf.get(g) + ")"));
			r.appendChild(h.make("span", "dur", fmtDur(g)));
			if (C.hasRet && fmtRet(g))
				r.appendChild(h.make("span", err(g) ? "ret err" : "ret", "= " + fmtRet(g)));
			FLAG.forEach(function (f) {
				if ((flags.get(g) || 0) & f[0])
					r.appendChild(h.make("span", "flag", "(" + f[1] + ")"));
			});
			if (siteOf.has(g))
				r.appendChild(h.make("span", "site", "\u2190 " + siteOf.get(g)));
			if (more.get(g))
				r.appendChild(h.make("span", "more", "+" + h.fmtCount(more.get(g)) + " calls not kept"));
			if (tl)
				r.appendChild(tl);
			if (k !== 0 && callOf.has(g))	// another kept call: its own tree is one click away
				r.title = "also in the list of calls of " + fnName(ref);
			r.addEventListener("click", function () { select(k); });
			return r;
		}

		function visible() {
			var T = st.tree, out = [];
			for (var k = 0; k < T.n; k++) {
				out.push(k);
				if (T.folded.has(k))
					k += T.size[k] - 1;
			}
			return out;
		}

		function renderTree(keepFocus) {
			var box = h.$("calltree"), frag = document.createDocumentFragment();
			while (box.firstChild)
				box.removeChild(box.firstChild);
			visible().forEach(function (k) { frag.appendChild(row(k)); });
			box.appendChild(frag);
			if (keepFocus) {
				var cur = box.querySelector(".tn.cur");
				if (cur)
					cur.focus();
			}
		}

		function toggle(k) {
			var T = st.tree;
			if (T.size[k] <= 1)
				return;
			if (T.folded.has(k))
				T.folded.delete(k);
			else
				T.folded.add(k);
			T.cur = k;
			renderTree(true);
		}

		function select(k) {
			var box = h.$("calltree"), old = box.querySelector(".tn.cur"), now = box.querySelector(".tn[data-k='" + k + "']");
			st.tree.cur = k;
			if (old) {
				old.classList.remove("cur");
				old.tabIndex = -1;
			}
			if (now) {
				now.classList.add("cur");
				now.tabIndex = 0;
				now.focus();
				now.scrollIntoView({ block: "nearest" });
			}
		}

		function keys(e) {
			var T = st.tree;
			if (!T)
				return;
			var vis = visible(), i = vis.indexOf(T.cur), k = T.cur, has = T.size[k] > 1;
			var parent = k ? k - C.node.up[T.lo + k] : -1;
			switch (e.key) {
			case "ArrowDown": if (i + 1 < vis.length) select(vis[i + 1]); break;
			case "ArrowUp": if (i > 0) select(vis[i - 1]); break;
			case "Home": select(0); break;
			case "End": select(vis[vis.length - 1]); break;
			case "ArrowRight":
				if (has && T.folded.has(k))
					toggle(k);
				else if (has)
					select(k + 1);
				break;
			case "ArrowLeft":
				if (has && !T.folded.has(k))
					toggle(k);
				else if (parent >= 0)
					select(parent);
				break;
			case " ": toggle(k); break;
			case "*":	// unfold everything
				T.folded.clear();
				renderTree(true);
				break;
			case "Enter":
				var ref = C.node.fn[T.lo + k];
				if (ref >= 0 && ref < N)
					h.jump(ref, false);
				break;
			default: return;
			}
			e.preventDefault();
		}

		st.cols = columns();
		st.cols.forEach(function (x) {
			var th = h.make("th", x.left ? "left" : "", x.title);
			th.setAttribute("data-key", x.key);
			th.addEventListener("click", function () {
				if (st.sortKey === x.key)
					st.desc = !st.desc;
				else {
					st.sortKey = x.key;
					st.desc = !x.left && x.key !== "start";
				}
				refresh();
			});
			x.th = th;
			h.$("calls-head").appendChild(th);
		});
		if (!C.hasRet) {
			h.$("calls-errors").disabled = true;
			h.$("calls-errors").parentNode.title = "the trace has no return values (funcgraph-retval, Linux 6.5+)";
		}
		var timer = null;
		function later() {
			clearTimeout(timer);
			timer = setTimeout(refresh, 120);
		}
		["calls-min", "calls-max", "calls-task"].forEach(function (id) { h.$(id).addEventListener("input", later); });
		h.$("calls-errors").addEventListener("change", refresh);
		h.$("calltree").addEventListener("keydown", keys);
		return { show: show, openCall: openCall };
	}

	return { setup: setup, parseDur: parseDur };
})();
