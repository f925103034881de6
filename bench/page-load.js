// SPDX-License-Identifier: MIT
// page-load.js - how fast kmag's pages open and respond in Chromium.
//
//   KMAG_NODE_MODULES=DIR node bench/page-load.js PAGE.html [FUNCTION]
//
// Opens PAGE from file:// 3 times in headless Debian chromium (playwright-core
// from DIR, e.g. build/tests/browser-deps/node_modules after the browser
// tests ran) and prints, best of 3: time from navigation start until the
// explorer has drawn everything (its data-ready-ms), then the time to focus
// FUNCTION (default: the one with the most callees) through the search box
// and to re-sort the function table by calls; and the JS heap in use.
"use strict";
const path = require("path");
const { chromium } = require(path.resolve(process.env.KMAG_NODE_MODULES, "playwright-core"));

async function main() {
	const file = path.resolve(process.argv[2]);
	const browser = await chromium.launch({
		executablePath: process.env.KMAG_CHROMIUM || "/usr/bin/chromium", headless: true,
		args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		       "--disable-sync", "--no-first-run", "--enable-precise-memory-info"],
	});
	const best = { ready: Infinity, focus: Infinity, sort: Infinity, heap: 0 };
	for (let run = 0; run < 3; run++) {
		const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
		const errors = [];
		page.on("pageerror", (e) => errors.push(e.message));
		await page.goto("file://" + file);
		await page.waitForSelector("body[data-ready='1']", { timeout: 120000 });
		const ready = +(await page.getAttribute("body", "data-ready-ms"));
		if (ready < best.ready) {
			best.ready = ready;
			best.parts = await page.evaluate(() => {
				const t = window.kmagTimings;
				return `script start ${t.start.toFixed(0)}, data ${(t.build - t.start).toFixed(0)}, ` +
					`table ${(t.table - t.build).toFixed(0)}, graph ${(t.focus - t.table).toFixed(0)}`;
			});
		}
		const target = process.argv[3] || await page.evaluate(() => {
			const d = JSON.parse(document.getElementById("kmag-data").textContent);
			const out = new Array(d.fn.name.length).fill(0);
			d.edge.src.forEach((s) => out[s]++);
			return d.fn.name[out.indexOf(Math.max.apply(null, out))];
		});
		let t = Date.now();
		await page.fill("#search", target);
		await page.press("#search", "Enter");
		await page.waitForFunction((n) => document.getElementById("details-name").textContent === n, target);
		best.focus = Math.min(best.focus, Date.now() - t);
		t = Date.now();
		// the third column: calls (graph) or calls in A (diff)
		await page.click("#table-head th:nth-child(3)");
		await page.waitForSelector("#table-head th:nth-child(3).sorted");
		best.sort = Math.min(best.sort, Date.now() - t);
		best.heap = Math.max(best.heap, await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : 0));
		best.nodes = await page.$$eval("#viewport g.node", (g) => g.length);
		if (errors.length)
			throw new Error("page errors: " + errors.join("; "));
		await page.close();
	}
	await browser.close();
	console.log(`ready ${best.ready.toFixed(0)} ms (${best.parts}), search+focus ${best.focus} ms (${best.nodes} nodes drawn), ` +
		    `sort table ${best.sort} ms, JS heap ${(best.heap / 1048576).toFixed(1)} MiB`);
}

main().catch((e) => { console.error("page-load: " + e.message); process.exit(1); });
