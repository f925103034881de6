// SPDX-License-Identifier: MIT
// explorer-sites.js - the "Called from" list of the explorer's function
// details: the distinct call sites the selected function was called from
// (funcgraph-retaddr, Linux 6.13+), "ksys_write+0x71", with `kmag html
// --vmlinux` its source line "fs/read_write.c:738", and how many calls came
// from each, most first. A click (or Enter) on a site focuses its caller.
// The data is D.sites (render/html-sites.c): columns f (the function), c (the
// caller, -1 when the page does not list it), s (the site), n (calls) and l
// (lines, with a vmlinux). A page without call sites has no D.sites and
// shows no list. Everything is built with textContent: names are never markup.
"use strict";
var KS = (function () {
	var SHOWN = 30;	// sites listed at once; the rest are counted

	function setup(D, h) {
		var S = D.sites, head = h.$("sites-head"), ul = h.$("sites"), by = new Map(), i;
		if (!S || D.mode === "diff")
			return { show: function () {} };
		for (i = 0; i < S.f.length; i++) {	// a function's rows are consecutive, most calls first
			if (!by.has(S.f[i]))
				by.set(S.f[i], []);
			by.get(S.f[i]).push(i);
		}

		function item(r) {
			var li = h.make("li");
			li.setAttribute("data-site", S.s[r]);
			li.appendChild(h.make("span", "n", S.s[r]));
			li.appendChild(h.make("span", "c", h.fmtCount(S.n[r]) + (S.n[r] === 1 ? " call" : " calls")));
			if (S.l && S.l[r])	// a row of its own under the site (CSS)
				li.appendChild(h.make("span", "line", S.l[r]));
			li.title = S.s[r] + (S.l && S.l[r] ? " (" + S.l[r] + ")" : "") + ": " +
				h.fmtCount(S.n[r]) + " calls" + (S.c[r] >= 0 ? "; click to focus the caller" : "");
			if (S.c[r] >= 0) {
				li.tabIndex = 0;
				li.addEventListener("click", function () { h.go(S.c[r]); });
				li.addEventListener("keydown", function (e) {
					if (e.key === "Enter")
						h.go(S.c[r]);
				});
			} else {
				li.classList.add("off");
			}
			return li;
		}

		function show(v) {
			var rows = by.get(v) || [], calls = 0;
			while (ul.firstChild)
				ul.removeChild(ul.firstChild);
			head.hidden = ul.hidden = false;
			rows.forEach(function (r) { calls += S.n[r]; });
			h.$("sites-count").textContent = "(" + rows.length + (rows.length ? ", " + h.fmtCount(calls) + " calls" : "") + ")";
			rows.slice(0, SHOWN).forEach(function (r) { ul.appendChild(item(r)); });
			if (rows.length > SHOWN)
				ul.appendChild(h.make("li", "more", "\u2026 " + (rows.length - SHOWN) + " more sites"));
			if (!rows.length)
				ul.appendChild(h.make("li", "more", "no call site recorded"));
		}
		return { show: show };
	}
	return { setup: setup };
})();
