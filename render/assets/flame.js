// SPDX-License-Identifier: MIT
// flame.js - interaction for kmag's flame-graph SVG (embedded in the file):
// hover shows a frame's details, click zooms into a frame, "Search" (or
// Ctrl-F, "/") highlights frames matching a regular expression and shows the
// share of the total they cover, Escape resets. ?s=REGEX in the URL searches
// on load.
"use strict";
var kf = {
	frames: [],
	zoomed: null,
	term: null,
};

function kfTextFor(name, w) {
	var fit = Math.floor((w - 6) / kf.charW);
	if (fit < 3)
		return "";
	if (name.length <= fit)
		return name;
	return name.substring(0, fit - 2) + "..";
}

function kfInit() {
	var svg = document.documentElement;
	kf.W = +svg.getAttribute("width");
	kf.pad = +svg.getAttribute("data-pad");
	kf.charW = +svg.getAttribute("data-charw");
	kf.details = document.getElementById("details");
	kf.matched = document.getElementById("matched");
	kf.unzoom = document.getElementById("unzoom");
	var gs = document.getElementById("frames").children;
	for (var i = 0; i < gs.length; i++) {
		var g = gs[i];
		var r = g.getElementsByTagName("rect")[0];
		var t = g.getElementsByTagName("text")[0];
		var title = g.getElementsByTagName("title")[0].textContent;
		var nl = title.indexOf("\n");
		g.setAttribute("data-i", i);
		kf.frames.push({
			g: g, r: r, t: t,
			x: +r.getAttribute("x"), w: +r.getAttribute("width"),
			d: +g.getAttribute("data-d"),
			name: nl < 0 ? title : title.substring(0, nl),
			info: nl < 0 ? "" : title.substring(nl + 1),
			fill: r.getAttribute("fill"),
		});
	}
	var box = document.getElementById("frames");
	box.addEventListener("mouseover", function (e) {
		var f = kfFrameOf(e.target);
		if (f)
			kf.details.textContent = f.name + "  " + f.info.replace(/\n/g, "  ");
	});
	box.addEventListener("mouseout", function (e) {
		if (kfFrameOf(e.target))
			kf.details.textContent = " ";
	});
	box.addEventListener("click", function (e) {
		var f = kfFrameOf(e.target);
		if (f)
			kfZoom(f);
	});
	kf.unzoom.addEventListener("click", kfUnzoom);
	document.getElementById("search").addEventListener("click", kfAskSearch);
	window.addEventListener("keydown", function (e) {
		if ((e.ctrlKey && (e.key === "f" || e.key === "F")) || e.key === "/") {
			e.preventDefault();
			kfAskSearch();
		} else if (e.key === "Escape") {
			kfUnzoom();
			kfSearch(null);
		}
	});
	var m = /[?&]s=([^&]*)/.exec(window.location.search);
	if (m)
		kfSearch(decodeURIComponent(m[1]));
}

function kfFrameOf(el) {
	while (el && el.nodeName !== "g")
		el = el.parentNode;
	if (!el || !el.hasAttribute("data-i"))
		return null;
	return kf.frames[+el.getAttribute("data-i")];
}

function kfPlace(f, x, w) {
	f.r.setAttribute("x", x.toFixed(2));
	f.r.setAttribute("width", w.toFixed(2));
	f.t.setAttribute("x", (x + 3).toFixed(2));
	f.t.textContent = kfTextFor(f.name, w);
}

function kfZoom(z) {
	var eps = 1e-6, full = kf.W - 2 * kf.pad, scale = full / z.w;
	kf.zoomed = z;
	kf.unzoom.setAttribute("class", "btn");
	for (var i = 0; i < kf.frames.length; i++) {
		var f = kf.frames[i];
		f.g.removeAttribute("class");
		if (f.d < z.d && f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps) {
			kfPlace(f, kf.pad, full);
			f.g.setAttribute("class", "parent");
		} else if (f.d >= z.d && f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps) {
			kfPlace(f, kf.pad + (f.x - z.x) * scale, f.w * scale);
		} else {
			f.g.setAttribute("class", "hide");
		}
	}
}

function kfUnzoom() {
	if (!kf.zoomed)
		return;
	kf.zoomed = null;
	kf.unzoom.setAttribute("class", "btn hide");
	for (var i = 0; i < kf.frames.length; i++) {
		var f = kf.frames[i];
		f.g.removeAttribute("class");
		kfPlace(f, f.x, f.w);
	}
}

function kfAskSearch() {
	var term = window.prompt("Highlight frames matching (regular expression; empty clears):",
				 kf.term || "");
	if (term !== null)
		kfSearch(term);
}

// Highlights matching frames; the matched share counts nested matches once.
function kfSearch(term) {
	var re = null, spans = [], i;
	if (term) {
		try {
			re = new RegExp(term);
		} catch (err) {
			kf.matched.textContent = "bad expression: " + err.message;
			return;
		}
	}
	kf.term = term || null;
	for (i = 0; i < kf.frames.length; i++) {
		var f = kf.frames[i];
		if (re && f.d > 0 && re.test(f.name)) {
			f.r.setAttribute("fill", "rgb(230,0,230)");
			spans.push([f.x, f.x + f.w]);
		} else {
			f.r.setAttribute("fill", f.fill);
		}
	}
	if (!re) {
		kf.matched.textContent = " ";
		return;
	}
	spans.sort(function (a, b) { return a[0] - b[0]; });
	var covered = 0, end = -1;
	for (i = 0; i < spans.length; i++) {
		var s = Math.max(spans[i][0], end), e = spans[i][1];
		if (e > s)
			covered += e - s;
		if (e > end)
			end = e;
	}
	var root = kf.frames.length ? kf.frames[0].w : 1;
	kf.matched.textContent = "Matched: " + (100 * covered / root).toFixed(1) + "% (" +
		spans.length + " frames)";
}

window.addEventListener("load", kfInit);
