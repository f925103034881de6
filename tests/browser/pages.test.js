// SPDX-License-Identifier: MIT
// pages.test.js - drives Debian's chromium (through playwright-core) over the
// pages kmag writes: the HTML explorer of a function_graph fixture, a diff
// page, a page of a trace with markup in a function name, the flame-graph
// SVG, the explorer's Calls view (calls.test.js) and Errors panel
// (errors.test.js), the details' Called from lists (sites.test.js). Every page is opened from file:// with the network blocked; any
// console error, page error, dialog or non-file request fails the test.
// Output is TAP. Screenshots go to $KMAG_SHOTS (to look at).
//
// Environment: KMAG (binary), FIXTURE_FG, FIXTURE_FG_BASE, FIXTURE_LOST, FIXTURE_61,
// FIXTURE_612 (traces),
// KMAG_NODE_MODULES (where `npm ci` put playwright-core), KMAG_SHOTS,
// KMAG_CHROMIUM (default /usr/bin/chromium).
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");
const { chromium } = require(path.join(process.env.KMAG_NODE_MODULES, "playwright-core"));
const testCalls = require("./calls.test.js");
const testErrors = require("./errors.test.js");
const testSites = require("./sites.test.js");

let n = 0, failed = 0;
function ok(cond, desc, detail) {
	n++;
	if (cond) {
		console.log(`ok ${n} - ${desc}`);
	} else {
		failed++;
		console.log(`not ok ${n} - ${desc}`);
		if (detail !== undefined)
			console.log("# " + String(detail).split("\n").join("\n# "));
	}
}
function note(s) { console.log("# " + s); }

const work = fs.mkdtempSync(path.join(os.tmpdir(), "kmag-browser-"));
const shots = process.env.KMAG_SHOTS || work;
fs.mkdirSync(shots, { recursive: true });
function kmag(args) { execFileSync(process.env.KMAG, args, { stdio: ["ignore", "ignore", "pipe"] }); }

const EVIL = "</script><b>x</b>&\"'";
function writeEvilTrace(file) {
	fs.writeFileSync(file, [
		"# tracer: function_graph", "#",
		"  100.000000 |   0)   bash-123    |               |  ksys_read() {",
		`  100.000003 |   0)   bash-123    |   1.000 us    |    ${EVIL}();`,
		"  100.000004 |   0)   bash-123    |   0.500 us    |    fdget_pos();",
		"  100.000009 |   0)   bash-123    |   9.000 us    |  }", ""].join("\n"));
}

// Opens @file in a fresh page, recording everything that must not happen.
async function open(ctx, file, query) {
	const page = await ctx.newPage();
	const problems = [];
	page.on("console", (m) => { if (m.type() === "error") problems.push("console error: " + m.text()); });
	page.on("pageerror", (e) => problems.push("page error: " + e.message));
	page.on("dialog", async (d) => { problems.push("dialog: " + d.message()); await d.dismiss(); });
	page.on("request", (r) => { if (!r.url().startsWith("file:")) problems.push("request: " + r.url()); });
	await page.goto("file://" + file + (query || ""));
	return { page, problems };
}

// Milliseconds from navigation start until the page's script had built everything.
async function readyMs(page) {
	return page.evaluate(() => Math.round(+document.body.getAttribute("data-ready-ms")));
}

async function nodeNames(page) {
	return page.$$eval("#viewport g.node[data-name]", (gs) => gs.map((g) => g.getAttribute("data-name")));
}
async function text(page, sel) { return (await page.textContent(sel)).trim(); }

// Waits up to @ms for @fn(@arg) to hold in the page. Never throws: the check
// that follows reads what the page shows and fails with it, instead of a
// timeout ending the whole run (or an ok(true) after the wait proving nothing).
async function settle(page, fn, arg, ms) {
	try {
		await page.waitForFunction(fn, arg, { timeout: ms || 5000 });
	} catch (e) {
		if (!/Timeout/i.test(String(e)))
			throw e;
	}
}
async function focusIs(page, name, desc) {
	await settle(page, (n) => document.getElementById("details-name").textContent === n, name);
	const shown = await page.textContent("#details-name");
	ok(shown === name, desc, `expected ${JSON.stringify(name)} in focus, the page shows ${JSON.stringify(shown)}`);
}
async function completions(page) {
	return page.$$eval("#completions li[data-name]", (lis) => lis.map((li) => li.getAttribute("data-name")));
}
async function relNames(page, id) {
	return page.$$eval(`#${id} li[data-name]`, (lis) => lis.map((li) => li.getAttribute("data-name")));
}

async function testExplorer(ctx) {
	const html = path.join(work, "explorer.html"), map = path.join(work, "seed.map");
	fs.writeFileSync(map, ["generic_perform_write|mm/filemap.c", "shmem_write_begin|mm/shmem.c",
			       "shmem_write_end|mm/shmem.c", "ksys_write|fs/read_write.c",
			       "vfs_write|fs/read_write.c", ""].join("\n"));
	kmag(["html", "--symbol-file-path", map, "-o", html, process.env.FIXTURE_FG]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	note(`explorer page ready ${await readyMs(page)} ms after navigation start (${fs.statSync(html).size} bytes)`);
	ok((await page.title()).includes("diff-fg-tmpfs"), "the explorer page loads with its title");
	ok((await text(page, "#details-name")).length > 0, "a function is in focus at start");
	ok((await nodeNames(page)).length >= 2, "the start graph shows it with neighbours");

	await page.fill("#search", "generic_perf");
	await settle(page, () => document.querySelector("#completions li[data-name='generic_perform_write']") !== null);
	const offered = await completions(page);
	ok(offered.includes("generic_perform_write"), "completion offers generic_perform_write for \"generic_perf\"",
	   "offered: " + offered.join(" "));
	ok(offered.length > 0 && offered.every((c) => c.includes("generic_perf")), "and only names containing it",
	   offered.join(" "));
	await page.press("#search", "Enter");
	await focusIs(page, "generic_perform_write", "Enter focuses it");
	ok((await page.evaluate(() => location.hash)) === "#fn=generic_perform_write", "the focus is in the URL");
	let names = await nodeNames(page);
	ok(names.includes("__generic_file_write_iter"), "the graph shows its caller", names.join(" "));
	ok(names.includes("shmem_write_begin") && names.includes("shmem_write_end"), "and its callees", names.join(" "));
	ok((await relNames(page, "callers")).includes("__generic_file_write_iter"), "the callers list names the caller");
	ok(await text(page, "#details-source") === "mm/filemap.c", "its source file is shown");
	ok((await relNames(page, "callees")).includes("shmem_write_begin"), "the callees list names the callee");
	ok(await page.$eval("#viewport g.node.focus", (g) => g.getAttribute("data-name")) === "generic_perform_write",
	   "the focused function is marked in the graph");

	await page.click("#viewport g.node[data-name='shmem_write_begin']");
	await focusIs(page, "shmem_write_begin", "clicking a node in the graph focuses it");
	ok((await relNames(page, "callers")).includes("generic_perform_write"), "its callers are shown");
	await page.click("#back");
	await focusIs(page, "generic_perform_write", "Back returns to the previous function");
	ok((await page.evaluate(() => location.hash)) === "#fn=generic_perform_write", "and to its URL",
	   await page.evaluate(() => location.hash));

	/* issue 27: its durations, percentiles and funclatency's log2 histogram, as the page's
	   data holds them (t0630 checks that data against trace-cmd's durations) */
	const lat = await page.evaluate(() => {
		const d = JSON.parse(document.getElementById("kmag-data").textContent);
		const i = d.fn.name.indexOf("generic_perform_write");
		return { p50: d.fn.p50[i], hist: d.fn.hist[i] };
	});
	ok(/p50 \/ p90 \/ p99\s*\S/.test(await text(page, "#details-stats")), "the details give p50 / p90 / p99",
	   await text(page, "#details-stats"));
	const histRows = await page.$$eval("#details-hist tr", (trs) => trs.map((tr) =>
		[tr.children[0].textContent, tr.children[1].textContent.replace(/\D/g, "")]));
	ok(lat.hist && histRows.length === lat.hist.length - 1 &&
	   histRows.every((r, k) => r[1] === String(lat.hist[k + 1])),
	   "and the histogram: a row per power of two with its count", JSON.stringify(histRows));
	const lo = lat.hist[0] === 1 ? 0 : Math.pow(2, lat.hist[0] - 1);
	ok(histRows.length && histRows[0][0].replace(/\D/g, "").startsWith(String(lo)),
	   "its first row starts at the first power of two in use", histRows.length ? histRows[0][0] : "");

	await page.fill("#depth-up", "3");
	await page.dispatchEvent("#depth-up", "change");
	names = await nodeNames(page);
	ok(names.includes("vfs_write"), "callers depth 3 reaches vfs_write", names.join(" "));
	/* issue 18: the status line counts caller->callee edges; "calls" means invocations elsewhere */
	const info = await text(page, "#graph-info");
	const drawn = await page.$$eval("#viewport g.edges path", (ps) => ps.length);
	ok(new RegExp("^" + names.length + " functions, " + drawn + " call edges shown").test(info),
	   "the status line counts the drawn functions and call edges", info + " (" + drawn + " edges drawn)");

	const before = await page.getAttribute("#viewport", "transform");
	const box = await page.$eval("#graph", (s) => { const r = s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; });
	await page.mouse.move(box[0], box[1]);
	await page.mouse.wheel(0, -400);
	ok(await page.getAttribute("#viewport", "transform") !== before, "the wheel zooms the graph");

	ok(await page.$$eval("#table-body tr", (trs) => trs.length) === 60, "the table starts with a screenful of rows");
	await page.click("#more");
	ok(await page.$$eval("#table-body tr", (trs) => trs.length) === 248, "Show more lists the rest");
	ok(await page.isHidden("#more"), "and then goes away");
	await page.click("#table-head th[data-key='calls']");
	const first = await page.$$eval("#table-body tr:first-child td", (tds) => tds.map((t) => t.textContent));
	const maxCalls = await page.evaluate(() => {
		const d = JSON.parse(document.getElementById("kmag-data").textContent);
		return Math.max.apply(null, d.fn.calls);
	});
	ok(first[1].replace(/,/g, "") === String(maxCalls), "sorting by calls puts the most called first", first.join(" | "));
	await page.fill("#name-filter", "shmem_");
	await settle(page, () => /^\d+ of/.test(document.getElementById("table-info").textContent) &&
		Array.from(document.querySelectorAll("#table-body tr")).every((tr) => tr.dataset.name.includes("shmem_")));
	const rows = await page.$$eval("#table-body tr", (trs) => trs.map((tr) => tr.dataset.name));
	ok(rows.length > 3 && rows.every((r) => r.includes("shmem_")), "the name filter keeps matching rows only", rows.join(" "));
	await page.fill("#name-filter", "");
	await page.fill("#path-filter", "/mm");
	await settle(page, () => document.getElementById("table-body").children.length === 3);
	let srcRows = await page.$$eval("#table-body tr", (trs) => trs.map((tr) => tr.dataset.name).sort());
	ok(srcRows.join(" ") === "generic_perform_write shmem_write_begin shmem_write_end",
	   "the path filter /mm keeps the functions from mm/", srcRows.join(" "));
	await page.fill("#path-filter", "fs/*_write.c");
	await settle(page, () => document.getElementById("table-body").children.length === 2);
	srcRows = await page.$$eval("#table-body tr", (trs) => trs.map((tr) => tr.dataset.name).sort());
	ok(srcRows.join(" ") === "ksys_write vfs_write", "a glob path filter works too", srcRows.join(" "));
	await page.fill("#path-filter", "");
	await page.fill("#name-filter", "shmem_");
	await settle(page, () => document.getElementById("table-body").children.length > 3);
	await page.click("#table-body tr[data-name='shmem_write_end']");
	await focusIs(page, "shmem_write_end", "clicking a table row focuses the function");
	await page.click("#viewport g.node[data-name='generic_perform_write']");
	await settle(page, () => document.getElementById("details-name").textContent === "generic_perform_write");
	await page.click("#fit");
	await page.screenshot({ path: path.join(shots, "explorer.png") });
	const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
	ok(wide <= 0, "the page does not scroll sideways", wide + " px too wide");
	ok(problems.length === 0, "no console errors, dialogs or network requests", problems.join("\n"));
	await page.close();
}

async function testEscaping(ctx) {
	const trace = path.join(work, "evil.txt"), html = path.join(work, "evil.html");
	writeEvilTrace(trace);
	kmag(["html", "-o", html, trace]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await page.fill("#search", "</scr");
	await settle(page, () => document.querySelector("#completions li[data-name]") !== null);
	const offered = await completions(page);
	ok(offered.includes(EVIL), "a name with markup is offered by search", offered.join(" "));
	await page.press("#search", "Enter");
	await focusIs(page, EVIL, "and shown as text when focused");
	ok(await page.$$eval("b", (bs) => bs.filter((b) => b.textContent === "x").length) === 0,
	   "no element was made from it");
	ok((await nodeNames(page)).includes(EVIL), "the graph labels it as text");
	ok(problems.length === 0, "and nothing ran from it", problems.join("\n"));
	await page.close();
}

// Pages from the hostile traces of tests/e2e/helpers/hostile-*.py (issue 16):
// nothing runs or breaks, no element comes from a name, names show as text.
async function testHostile(ctx) {
	const cases = [
		["hostile-txt", process.env.FIXTURE_HOSTILE_TXT,
		 ["esc_\u001b[31mred\u001b[0m_\u001b]0:title\u0007", "</script><script>alert`1`</script>",
		  "cdata_]]>_<![CDATA[x", "quote_\"'`_amp_&amp_&_lt_<_gt_>", "back\\slash\\N\\l\\"]],
		["hostile-dat", process.env.FIXTURE_HOSTILE_DAT,
		 ["bad\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd_\ufffdx", "esc\u001b[31m</>\u0001&\""]],
	];
	for (const [name, trace, names] of cases) {
		const html = path.join(work, name + ".html");
		kmag(["html", "-o", html, trace]);
		const { page, problems } = await open(ctx, html);
		await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
		const scripts = await page.$$eval("script", (s) => s.length);
		ok(scripts === 2, `${name}: the page has its two scripts, none from a name`, scripts + " scripts");
		for (const n of names) {
			const prefix = n.slice(0, 4);
			await page.fill("#search", prefix);
			await settle(page, (p) => [...document.querySelectorAll("#completions li[data-name]")]
				.some((li) => li.getAttribute("data-name").startsWith(p)), prefix);
			const offered = await completions(page);
			ok(offered.includes(n), `${name}: search offers ${JSON.stringify(n.slice(0, 24))} as it is`,
			   offered.map((s) => JSON.stringify(s)).join(" "));
		}
		await page.fill("#search", names[0].slice(0, 4));
		await page.press("#search", "Enter");
		await focusIs(page, names[0], `${name}: focused, it is shown as text`);
		ok(problems.length === 0, `${name}: no errors, dialogs or requests`, problems.join("\n"));
		await page.screenshot({ path: path.join(shots, name + ".png") });
		await page.close();
	}
}

async function testLost(ctx) {
	const html = path.join(work, "lost.html");
	kmag(["html", "-o", html, process.env.FIXTURE_LOST]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	ok(await page.isVisible("#lost"), "a trace with lost events shows the banner");
	const lost = await text(page, "#lost");
	ok(/CPU0: [\d,]+ events lost \([\d.]+%\)/.test(lost) && /CPU1: /.test(lost), "per CPU, with counts", lost);
	ok(problems.length === 0, "no errors on the lost-events page", problems.join("\n"));
	await page.close();
}

async function testProbes(ctx) {
	const html = path.join(work, "probes.html");
	kmag(["html", "-o", html, "--focus", "ksys_write", process.env.FIXTURE_PROBES]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	ok(await page.$eval("#viewport g.node[data-name='vfs_write']", (g) => g.classList.contains("probed")),
	   "the kprobed vfs_write is drawn as probed");
	ok(!(await page.$eval("#viewport g.node[data-name='ksys_write']", (g) => g.classList.contains("probed"))),
	   "its unprobed caller ksys_write is not");
	await page.fill("#search", "vfs_write");
	await page.press("#search", "Enter");
	await focusIs(page, "vfs_write", "search + Enter focuses vfs_write");
	const stats = await text(page, "#details-stats");
	ok(/probe hits\s*30/.test(stats), "its details show the 30 probe hits", stats);
	await page.screenshot({ path: path.join(shots, "probes.png") });
	ok(problems.length === 0, "no errors on the probes page", problems.join("\n"));
	await page.close();
}

// f 10 us calling f 4 us: total 10 us (the outer call holds the inner), avg 7 us (the mean)
async function testRecursionAvg(ctx) {
	const txt = path.join(work, "recursion.txt"), html = path.join(work, "recursion.html");
	fs.writeFileSync(txt, ["# tracer: function_graph", "#",
		" 0)    cat-7    |               |  f() {",
		" 0)    cat-7    |   4.000 us    |    f();",
		" 0)    cat-7    | + 10.000 us   |  }", ""].join("\n"));
	kmag(["html", "-o", html, "--focus", "f", txt]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await focusIs(page, "f", "the recursive function is in focus");
	const stats = await text(page, "#details-stats");
	ok(/total\s*10\.000 us/.test(stats) && /avg\s*7\.000 us/.test(stats),
	   "a recursive function: total of its outermost call, avg the mean of its calls", stats);
	ok(problems.length === 0, "no errors on the recursion page", problems.join("\n"));
	await page.close();
}

async function testDiff(ctx) {
	const html = path.join(work, "diff.html");
	kmag(["diff", "-F", "html", "-o", html, process.env.FIXTURE_FG_BASE, process.env.FIXTURE_FG]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	note(`diff page ready ${await readyMs(page)} ms after navigation start`);
	await page.fill("#search", "ksys_write");
	await page.press("#search", "Enter");
	await focusIs(page, "ksys_write", "search + Enter focuses ksys_write on the diff page");
	const stats = await text(page, "#details-stats");
	ok(/grew/.test(stats) && /17 \u2192 34/.test(stats), "ksys_write is shown as grown, 17 \u2192 34 calls", stats);
	ok(await page.$eval("#viewport g.node[data-name='vfs_write']", (g) => g.classList.contains("grew")),
	   "its callee vfs_write is drawn as grown");
	await page.fill("#depth-down", "3");
	await page.dispatchEvent("#depth-down", "change");
	ok(await page.$eval("#viewport g.node[data-name='generic_file_write_iter']", (g) => g.classList.contains("added")),
	   "the new generic_file_write_iter is drawn as added");
	ok(await page.$$eval("#viewport path.edge.grow", (p) => p.length) > 0, "growing calls are drawn red");
	ok(await page.isHidden("#calls"), "a diff page has no Calls view (a diff has no single calls)");
	await page.selectOption("#status-filter", "3");
	await settle(page, () => Array.from(document.querySelectorAll("#table-body tr")).every((tr) =>
		tr.children[1].textContent === "added"));
	const added = await page.$$eval("#table-body tr", (trs) => trs.map((tr) => tr.dataset.name));
	ok(added.includes("generic_perform_write") && added.includes("shmem_write_begin"),
	   "the status filter lists the added functions", added.slice(0, 12).join(" "));
	await page.selectOption("#status-filter", "");
	await page.screenshot({ path: path.join(shots, "diff.png") });
	ok(problems.length === 0, "no console errors, dialogs or network requests", problems.join("\n"));
	await page.close();
}

// A diff across kernels (Linux 6.1 and 6.12 fixtures): both kernels are named,
// a note says they differ, and a renamed function is one function, "A -> B".
async function testDiffKernels(ctx) {
	const html = path.join(work, "diff-kernels.html");
	kmag(["diff", "-F", "html", "-o", html, process.env.FIXTURE_61, process.env.FIXTURE_612]);
	const { page, problems } = await open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const facts = await text(page, "#facts");
	ok(/kernels\s*A 6\.1\.0-56-cloud-amd64, B 6\.12\.117\+deb12-cloud-amd64/.test(facts),
	   "the facts name both kernels", facts);
	ok(/different kernels: .*6 renamed or cloned ones paired/.test(facts), "... and say they differ", facts);
	await page.fill("#search", "fdget_pos");
	await page.press("#search", "Enter");
	await focusIs(page, "__fdget_pos \u2192 fdget_pos", "fdget_pos finds the one renamed function");
	const stats = await text(page, "#details-stats");
	ok(/25 \u2192 25/.test(stats), "its calls are compared, 25 \u2192 25", stats);
	ok(problems.length === 0, "no console errors, dialogs or network requests", problems.join("\n"));
	await page.close();
}

async function testFlame(ctx) {
	const svg = path.join(work, "flame.svg");
	kmag(["flame", "-o", svg, process.env.FIXTURE_FG]);
	let { page, problems } = await open(ctx, svg);
	await settle(page, () => typeof kf !== "undefined" && kf.frames.length > 0);
	const frames = await page.evaluate(() => kf.frames.length);
	ok(frames > 100, `the flame graph has ${frames} frames`);
	const g = await page.$("xpath=//*[local-name()='g'][*[local-name()='title'][starts-with(text(),'vfs_write\n')]]");
	await g.hover();
	ok(/^vfs_write .*calls/.test(await text(page, "#details")), "hovering a frame shows its calls and time",
	   await text(page, "#details"));
	await g.click();
	const w = await page.evaluate(() => {
		const f = kf.frames.find((x) => x.name === "vfs_write");
		return [+f.r.getAttribute("width"), kf.W - 2 * kf.pad];
	});
	ok(Math.abs(w[0] - w[1]) < 1, "clicking it zooms it to the full width", w.join(" vs "));
	ok(!(await page.getAttribute("#unzoom", "class")).includes("hide"), "and offers Reset Zoom");
	await page.screenshot({ path: path.join(shots, "flame-zoomed.png") });
	ok(problems.length === 0, "no errors in the flame graph", problems.join("\n"));
	await page.close();
	({ page, problems } = await open(ctx, svg, "?s=shmem_"));
	await settle(page, () => /Matched/.test(document.getElementById("matched").textContent));
	const m = await text(page, "#matched");
	const pct = parseFloat(m.replace(/^Matched: /, ""));
	ok(pct > 0 && pct < 100, "searching shmem_ highlights a share of the graph", m);
	ok(await page.evaluate(() => kf.frames.some((f) => f.r.getAttribute("fill") === "rgb(230,0,230)")),
	   "matching frames are highlighted");
	await page.screenshot({ path: path.join(shots, "flame-search.png") });
	ok(problems.length === 0, "no errors while searching", problems.join("\n"));
	await page.close();
}

async function main() {
	const ctx = await chromium.launchPersistentContext(path.join(work, "profile"), {
		executablePath: process.env.KMAG_CHROMIUM || "/usr/bin/chromium",
		headless: true,
		args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		       "--disable-sync", "--no-first-run"],
		viewport: { width: 1400, height: 1000 },
	});
	try {
		await testExplorer(ctx);
		await testEscaping(ctx);
		await testHostile(ctx);
		await testLost(ctx);
		await testProbes(ctx);
		await testRecursionAvg(ctx);
		await testDiff(ctx);
		await testDiffKernels(ctx);
		await testFlame(ctx);
		await testCalls({ ok, note, open, settle, kmag, text, focusIs, work, shots, EVIL, writeEvilTrace }, ctx);
		await testErrors({ ok, note, open, settle, kmag, text, focusIs, work, shots, EVIL }, ctx);
		await testSites({ ok, note, open, settle, kmag, text, focusIs, work, shots }, ctx);
	} catch (e) {
		ok(false, "the browser tests ran to the end", e.stack);
	} finally {
		await ctx.close();
		fs.rmSync(work, { recursive: true, force: true });
	}
	note(`screenshots in ${shots}`);
	console.log(`1..${n}`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	console.log("not ok 1 - could not start the browser");
	console.log("# " + String(e.stack).split("\n").join("\n# "));
	console.log("1..1");
	process.exit(1);
});
