// SPDX-License-Identifier: MIT
// calls-open.js - how fast the explorer's Calls view answers in Chromium.
//
//   KMAG_NODE_MODULES=DIR node bench/calls-open.js PAGE.html
//
// Opens PAGE from file:// 3 times (headless Debian chromium through
// playwright-core from DIR) and prints, best of 3: the page's ready time
// (its data-ready-ms), the time to show the Calls view of the function with
// the most kept calls (a click in the function table), and the time to open
// a call tree: the click on a call's row until the tree's rows are laid out
// (a click dispatched in the page, then a forced layout), for the tree with
// the most kept calls on the page and for the slowest call of that function.
// Prints the JS heap in use too.
"use strict";
const path = require("path");
const { chromium } = require(path.resolve(process.env.KMAG_NODE_MODULES, "playwright-core"));

// In the page: the click on @sel and the layout that follows, in ms.
function timedClick(page, sel) {
	return page.evaluate((s) => {
		const t = performance.now();
		document.querySelector(s).click();
		void document.getElementById("calltree").getBoundingClientRect();
		void document.body.offsetHeight;
		return performance.now() - t;
	}, sel);
}

async function main() {
	const file = path.resolve(process.argv[2]);
	const browser = await chromium.launch({
		executablePath: process.env.KMAG_CHROMIUM || "/usr/bin/chromium", headless: true,
		args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		       "--disable-sync", "--no-first-run", "--enable-precise-memory-info"],
	});
	const best = { ready: Infinity, show: Infinity, big: Infinity, slow: Infinity, heap: 0 };
	for (let run = 0; run < 3; run++) {
		const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
		const errors = [];
		page.on("pageerror", (e) => errors.push(e.message));
		await page.goto("file://" + file);
		await page.waitForSelector("body[data-ready='1']", { timeout: 120000 });
		best.ready = Math.min(best.ready, +(await page.getAttribute("body", "data-ready-ms")));
		// the function whose kept calls hold the most nodes, and its biggest tree
		const pick = await page.evaluate(() => {
			const D = JSON.parse(document.getElementById("kmag-data").textContent), C = D.calls;
			const nc = C.call.node.length, nn = C.node.fn.length;
			let bigCall = 0, bigN = 0;
			for (let c = 0; c < nc; c++) {
				const n = (c + 1 < nc ? C.call.node[c + 1] : nn) - C.call.node[c];
				if (n > bigN) {
					bigN = n;
					bigCall = c;
				}
			}
			const fnOf = C.node.fn[C.call.node[bigCall]];
			const s = C.fn.f.indexOf(fnOf);
			return { name: D.fn.name[fnOf], call: bigCall, nodes: bigN, kept: C.fn.cn[s], seen: C.fn.seen[s],
				 allCalls: nc, allNodes: nn };
		});
		await page.fill("#name-filter", "/^" + pick.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$/");
		await page.waitForFunction((n) => { const r = document.querySelector("#table-body tr"); return r && r.dataset.name === n; }, pick.name);
		const t = Date.now();
		await page.click("#table-body tr:first-child");
		await page.waitForFunction((n) => document.getElementById("calls-of").textContent === "of " + n, pick.name);
		best.show = Math.min(best.show, Date.now() - t);
		best.big = Math.min(best.big, await timedClick(page, `#calls-body tr[data-call='${pick.call}']`));
		await page.click("#calls-head th[data-key='dur']");	// slowest first
		if (await page.$eval("#calls-head th[data-key='dur']", (th) => th.classList.contains("asc")))
			await page.click("#calls-head th[data-key='dur']");
		best.slow = Math.min(best.slow, await timedClick(page, "#calls-body tr:first-child"));
		const rows = await page.$$eval("#calltree .tn", (r) => r.length);
		best.heap = Math.max(best.heap, await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : 0));
		best.pick = pick;
		best.rows = rows;
		if (errors.length)
			throw new Error("page errors: " + errors.join("; "));
		await page.close();
	}
	await browser.close();
	const p = best.pick;
	console.log(`ready ${best.ready.toFixed(0)} ms; page holds ${p.allCalls} calls, ${p.allNodes} tree nodes`);
	console.log(`Calls view of ${p.name} (${p.kept} of ${p.seen} calls kept) ${best.show} ms after the click`);
	console.log(`open its biggest tree (${p.nodes} calls) ${best.big.toFixed(1)} ms, ` +
		    `its slowest call's tree (${best.rows} rows shown) ${best.slow.toFixed(1)} ms; ` +
		    `JS heap ${(best.heap / 1048576).toFixed(1)} MiB`);
}

main().catch((e) => { console.error("calls-open: " + e.message); process.exit(1); });
