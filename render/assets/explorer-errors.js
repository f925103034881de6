// SPDX-License-Identifier: MIT
// explorer-errors.js - the explorer's Errors panel: where the trace's errors
// were born (`kmag errors`), one row per origin function, errno and entry
// point with its count; a click (or Enter) on a row shows its example chain
// and focuses the origin in the graph with the chain from the entry point
// drawn in. The graph marks the error paths in purple as `kmag visualize
// --errors` does: the steps of the failed calls from their entry point down
// to where the error was born (edges), and those origins (a purple border).
// The data is D.errors (render/html-errors.c); a function there is the
// page's index of a listed function, the name of one the page leaves out, or
// null (a caller the trace lacks). A page without return values has no
// D.errors and shows neither panel nor marks.
// Everything is built with textContent/setAttribute: names are never markup.
"use strict";
var KE = (function () {
	function setup(D, h) {
		var E = D.errors, none = { pathFor: function () { return null; }, focused: function () {},
					   nodeClass: function () { return ""; }, edgeClass: function () { return ""; },
					   nodeTitle: function () { return ""; }, legend: function () {} };
		if (!E || D.mode === "diff")
			return none;
		var N = D.fn.name.length, sec = h.$("errors"), i;
		var pathEdge = new Set(E.pathEdge), pathOrigin = new Set(E.pathOrigin);
		var st = { sel: -1, target: -1, path: null, edges: new Set(), nodes: new Set(), rows: [] };
		var originOf = new Map();	// function -> the groups it is the origin of
		E.groups.forEach(function (g, j) {
			if (typeof g.origin === "number") {
				if (!originOf.has(g.origin))
					originOf.set(g.origin, []);
				originOf.get(g.origin).push(j);
			}
		});

		function name(f) { return typeof f === "number" ? (f >= 0 && f < N ? D.fn.name[f] : "?") : f === null ? "?" : f; }
		function errLabel(g) { return g.errname ? g.errname + " (" + g.errno + ")" : String(g.errno); }

		// The function (link) of the chain the graph focuses: the origin, or the
		// deepest link the page lists when a path filter left the origin out.
		function targetOf(g) {
			for (var k = g.chain.length - 1; k >= 0; k--)
				if (typeof g.chain[k] === "number")
					return k;
			return -1;
		}

		function select(j, noFocus) {
			var g = E.groups[j], k = targetOf(g);
			st.sel = j;
			st.edges = new Set();
			st.nodes = new Set();
			st.path = [];
			st.target = k >= 0 ? g.chain[k] : -1;
			for (var a = 0; a <= k; a++) {
				var v = g.chain[a];
				if (typeof v !== "number")
					continue;
				st.nodes.add(v);
				if (a < k)
					st.path.push({ v: v, layer: a - k });
				var w = g.chain[a + 1];
				if (typeof w === "number")
					h.outs(v).forEach(function (e) {
						if (D.edge.dst[e] === w)
							st.edges.add(e);
					});
			}
			st.rows.forEach(function (tr, r) { tr.classList.toggle("current", r === j); });
			showChain(g);
			if (!noFocus && st.target >= 0)
				h.jump(st.target);
		}

		function clear() {
			st.sel = -1;
			st.target = -1;
			st.path = null;
			st.edges = new Set();
			st.nodes = new Set();
			st.rows.forEach(function (tr) { tr.classList.remove("current"); });
			var box = h.$("errors-chain");
			while (box.firstChild)
				box.removeChild(box.firstChild);
			box.appendChild(h.make("div", "hint", "Click an origin to see its example chain and its path in the graph."));
		}

		// "__x64_sys_openat 320.021 us =-2 > do_sys_open ... > link_path_walk 1.093 us =-2"
		function showChain(g) {
			var box = h.$("errors-chain");
			while (box.firstChild)
				box.removeChild(box.firstChild);
			var head = h.make("div", "head");
			head.appendChild(document.createTextNode("Example (task " + g.pid + "): " + errLabel(g) + " born in "));
			head.appendChild(h.make("b", null, name(g.origin)));
			head.appendChild(document.createTextNode(", entry point " + name(g.entry)));
			box.appendChild(head);
			var ol = h.make("ol", "chain");
			g.chain.forEach(function (f, k) {
				var li = h.make("li", g.ret[k] ? "err" : "");
				if (g.cut && k === 1)
					ol.appendChild(h.make("li", "cut", "\u2026 calls left out"));
				if (typeof f === "number") {
					var a = h.make("a", "fn", name(f));
					a.href = "#fn=" + encodeURIComponent(name(f));
					a.setAttribute("data-name", name(f));
					a.addEventListener("click", function (ev) {
						ev.preventDefault();
						h.jump(f);
					});
					li.appendChild(a);
				} else {
					li.appendChild(h.make("span", "fn", name(f) + (f === null ? "" : " (not on the page)")));
				}
				if (g.dur[k] >= 0)
					li.appendChild(h.make("span", "dur", h.fmtNs(g.dur[k])));
				if (g.ret[k])
					li.appendChild(h.make("span", "ret", "= " + g.errno));
				ol.appendChild(li);
			});
			box.appendChild(ol);
			if (g.after !== undefined)
				box.appendChild(h.make("div", "note", "Its caller had called " + name(g.after) + " before, which returned " +
						       g.errno + " too: the error may have been handed on as data (an ERR_PTR) or retried."));
		}

		function row(g, j) {
			var tr = h.make("tr", g.reached ? "reached" : "handled");
			tr.setAttribute("data-group", j);
			tr.setAttribute("data-origin", name(g.origin));
			tr.tabIndex = 0;
			[h.fmtCount(g.count), errLabel(g), name(g.origin), name(g.entry),
			 g.reached ? h.fmtCount(g.reached) : "0 (handled)"].forEach(function (t, c) {
				tr.appendChild(h.make("td", c === 2 || c === 3 ? "fn" : c === 1 ? "left" : "", t));
			});
			tr.title = name(g.origin) + " returned " + errLabel(g) + " " + g.count + " time" + (g.count === 1 ? "" : "s") +
				" under " + name(g.entry) + (g.reached ? "; the entry point returned it " + g.reached + "\u00d7" :
							   "; a caller handled or changed it before the entry point");
			tr.addEventListener("click", function () { select(j); });
			tr.addEventListener("keydown", function (ev) {
				if (ev.key === "Enter" || ev.key === " ") {
					ev.preventDefault();
					select(j);
				}
			});
			return tr;
		}

		function setupPanel() {
			var s = E.nrGroups + " group" + (E.nrGroups === 1 ? "" : "s") + ": " + h.fmtCount(E.origins) + " origin" +
				(E.origins === 1 ? "" : "s") + " of " + h.fmtCount(E.errorReturns) + " error returns";
			h.$("errors-sum").textContent = s;
			h.$("errors-types").textContent = E.types ? "return types: " + E.types + " (void, bool and unsigned returns are no errors)" :
				"return types unknown: give --btf or a trace with BTF; void/bool functions may show as errors";
			if (E.groups.length < E.nrGroups)
				h.$("errors-types").textContent += "; the page keeps the first " + E.groups.length + " groups";
			var head = h.$("errors-head");
			["Count", "Errno", "Origin", "Entry point", "Entry returned it"].forEach(function (t, c) {
				head.appendChild(h.make("th", c >= 1 && c <= 3 ? "left" : "", t));
			});
			var body = h.$("errors-body"), frag = document.createDocumentFragment();
			E.groups.forEach(function (g, j) {
				var tr = row(g, j);
				st.rows.push(tr);
				frag.appendChild(tr);
			});
			body.appendChild(frag);
			if (!E.groups.length)
				h.$("errors-types").textContent += "; no call returned an error";
			clear();
			// a button among the facts opens the panel
			var b = h.make("button", null, "errors: " + h.fmtCount(E.origins) + " origins");
			b.type = "button";
			b.id = "errors-open";
			b.addEventListener("click", function () {
				h.$("errors-box").open = true;
				sec.scrollIntoView({ block: "start" });
			});
			h.$("facts").appendChild(b);
			sec.hidden = false;
		}
		setupPanel();

		// Under the focused function's statistics: the errors born in it, each a
		// link to its row (in an element of our own, after #details-stats).
		var here = h.make("div");
		here.id = "details-errors";
		here.hidden = true;
		h.$("details-stats").insertAdjacentElement("afterend", here);
		function bornHere(v) {
			var list = originOf.get(v) || [];
			while (here.firstChild)
				here.removeChild(here.firstChild);
			here.hidden = !list.length;
			if (!list.length)
				return;
			here.appendChild(h.make("h3", null, "Errors born here"));
			var ul = h.make("ul", "rel");
			list.forEach(function (j) {
				var g = E.groups[j], li = h.make("li");
				li.setAttribute("data-group", j);
				li.appendChild(h.make("span", "n", errLabel(g) + " under " + name(g.entry)));
				li.appendChild(h.make("span", "c", "\u00d7" + h.fmtCount(g.count)));
				li.title = "show it in the Errors panel and its path in the graph";
				li.addEventListener("click", function () {
					h.$("errors-box").open = true;
					select(j);
					st.rows[j].scrollIntoView({ block: "nearest" });
				});
				ul.appendChild(li);
			});
			here.appendChild(ul);
		}

		return {
			// the chain to draw into the graph when @v is in focus: [{v, layer}], or null
			pathFor: function (v) { return st.sel >= 0 && v === st.target ? st.path : null; },
			// a function came into focus: a selection of another origin ends
			focused: function (v) {
				if (st.sel >= 0 && v !== st.target)
					clear();
				bornHere(v);
			},
			nodeClass: function (v) {
				return (pathOrigin.has(v) ? " errorigin" : "") + (st.nodes.has(v) ? " errsel" : "");
			},
			edgeClass: function (e) {
				return (pathEdge.has(e) ? " errpath" : "") + (st.edges.has(e) ? " errsel" : "");
			},
			nodeTitle: function (v) {
				return (originOf.get(v) || []).slice(0, 6).map(function (j) {
					var g = E.groups[j];
					return "\nerror born here: " + errLabel(g) + " \u00d7" + g.count + " under " + name(g.entry);
				}).join("");
			},
			legend: function (box) {
				if (!E.pathEdge.length && !E.pathOrigin.length)
					return;
				var sw = h.make("span", "errline");
				box.appendChild(sw);
				box.appendChild(document.createTextNode("error path"));
				var o = h.make("span", "sw errorigin");
				box.appendChild(o);
				box.appendChild(document.createTextNode("born here"));
			},
		};
	}

	return { setup: setup };
})();
