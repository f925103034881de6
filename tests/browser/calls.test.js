// SPDX-License-Identifier: MIT
// calls.test.js - the explorer's Calls view in chromium, for pages.test.js:
// the calls of a function against `kmag report` (counts) and `kmag replay
// --format json` (each call's duration and callees: a separate path through
// kmag), sorting, the duration, errors and task filters, opening a call's
// tree, folding by click and keyboard, the links from the tree to the graph
// and the table, real errors, arguments and call sites of Linux 6.19
// recordings, keyboard-only use, and a name with markup in a tree.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

// `kmag replay --format json` as objects, one per call.
function replay(args) {
	const out = execFileSync(process.env.KMAG, ["replay", "--format", "json"].concat(args),
				 { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"] }).toString();
	return out.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}
function reportCalls(trace, fn) {
	const r = JSON.parse(execFileSync(process.env.KMAG, ["report", "--format", "json", "--limit", "0", trace]).toString());
	const f = r.functions.find((x) => x.name === fn);
	return f ? f.calls : -1;
}

// A function_graph text trace with return values: open_it runs 6 times on two
// tasks, two of them fail (-2, -13); each calls getname (an address) and check().
function writeRetvalTrace(file) {
	const lines = ["# tracer: function_graph", "#"];
	const rets = ["0x3", "-2", "0x4", "0xfffffff3", "0x5", "0x6"];
	let t = 100.0;
	const ts = () => (t += 0.000010).toFixed(6);
	rets.forEach((r, i) => {
		const task = i % 2 ? "cat-77     " : "bash-123   ";
		const cpu = i % 2 ? "1" : "0";
		const d = (5 + i * 3).toFixed(3);
		lines.push(`  ${ts()} |   ${cpu})   ${task} |               |  open_it() {`);
		lines.push(`  ${ts()} |   ${cpu})   ${task} |   1.000 us    |    getname(); /* = 0xffff888003a5c000 */`);
		lines.push(`  ${ts()} |   ${cpu})   ${task} |   0.500 us    |    check(); /* = ${r === "0x3" ? "-1" : "0x0"} */`);
		lines.push(`  ${ts()} |   ${cpu})   ${task} |   ${d} us    |  } /* open_it = ${r} */`);
	});
	fs.writeFileSync(file, lines.join("\n") + "\n");
}

async function rowsOf(page) {
	return page.$$eval("#calls-body tr", (trs) => trs.map((tr) => +tr.getAttribute("data-call")));
}
// Durations (ns) of the listed calls, in the page's order, from the page's data.
async function listedDurations(page) {
	return page.evaluate(() => {
		const C = JSON.parse(document.getElementById("kmag-data").textContent).calls;
		return Array.from(document.querySelectorAll("#calls-body tr")).map((tr) =>
			C.node.d[C.call.node[+tr.getAttribute("data-call")]]);
	});
}
async function treeRows(page) {
	return page.$$eval("#calltree .tn", (rs) => rs.map((r) => [r.getAttribute("data-name"), +r.getAttribute("aria-level")]));
}

async function testCallsList(L, ctx) {
	const trace = process.env.FIXTURE_FG, html = path.join(L.work, "calls.html"), F = "vfs_write";
	L.kmag(["html", "--focus", F, "-o", html, trace]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const calls = reportCalls(trace, F);
	const rep = replay(["--function", F, trace]).filter((c) => c.function === F && c.duration_ns !== null);
	const want = rep.map((c) => c.duration_ns).sort((a, b) => b - a);
	L.ok(calls > 0 && rep.length === calls, `kmag report and kmag replay agree: ${F} ran ${calls} times`, rep.length);
	L.ok(await page.isVisible("#calls"), "the Calls view is shown");
	L.ok((await L.text(page, "#calls-of")) === "of " + F, "for the function in focus", await L.text(page, "#calls-of"));
	const kept = await L.text(page, "#calls-kept");
	L.ok(kept.startsWith(`all ${calls} calls`), "it says it keeps all of them", kept);
	let durs = await listedDurations(page);
	L.ok(durs.length === calls, `it lists ${calls} calls`, durs.length);
	L.ok(JSON.stringify(durs) === JSON.stringify(want),
	     "their durations are replay's, slowest first", durs.slice(0, 8).join(" ") + " vs " + want.slice(0, 8).join(" "));
	await page.click("#calls-head th[data-key='dur']");
	durs = await listedDurations(page);
	L.ok(JSON.stringify(durs) === JSON.stringify(want.slice().reverse()), "a click on Duration sorts shortest first",
	     durs.slice(0, 8).join(" "));
	await page.click("#calls-head th[data-key='dur']");
	const median = want[Math.floor(want.length / 2)];
	await page.fill("#calls-min", (median / 1000) + "us");
	await L.settle(page, (n) => document.querySelectorAll("#calls-body tr").length === n, want.filter((d) => d >= median).length);
	durs = await listedDurations(page);
	L.ok(durs.length === want.filter((d) => d >= median).length && durs.every((d) => d >= median),
	     `duration \u2265 ${median / 1000} us keeps the ${durs.length} calls replay has at or above it`, durs.join(" "));
	await page.fill("#calls-max", (median / 1000) + "us");
	await L.settle(page, (n) => document.querySelectorAll("#calls-body tr").length === n, want.filter((d) => d === median).length);
	durs = await listedDurations(page);
	L.ok(durs.length >= 1 && durs.every((d) => d === median), "and \u2264 the same keeps only those of that duration", durs.join(" "));
	await page.fill("#calls-min", "");
	await page.fill("#calls-max", "");
	await L.settle(page, (n) => document.querySelectorAll("#calls-body tr").length === n, calls);

	// the slowest call's tree in one click, against replay's callees of that call
	const slow = rep.find((c) => c.duration_ns === want[0]);
	const kids = replay(["--function", F, trace]).filter((c) => c.parent === slow.id).map((c) => c.function);
	await page.click("#calls-body tr:first-child");
	await L.settle(page, () => document.querySelectorAll("#calltree .tn").length > 0);
	let rows = await treeRows(page);
	L.note(`opening the slowest call's tree took ${(await page.evaluate(() => window.kmagCallTreeMs)).toFixed(1)} ms`);
	L.ok(rows.length > 0 && rows[0][0] === F && rows[0][1] === 1, "a click on the slowest call opens its tree", JSON.stringify(rows[0]));
	const level2 = rows.filter((r) => r[1] === 2).map((r) => r[0]);
	L.ok(JSON.stringify(level2) === JSON.stringify(kids), "its callees in time order, as replay has them",
	     level2.join(" ") + " vs " + kids.join(" "));
	L.ok(/^\+/.test(await L.text(page, "#calltree .tn:nth-child(2) .ts")) &&
	     / us| ns| ms/.test(await L.text(page, "#calltree .tn:nth-child(2) .dur")), "each line has its start offset and duration");
	const all = rows.length;
	await page.click("#calltree .tn[data-k='0'] .tw");
	rows = await treeRows(page);
	L.ok(rows.length === 1 && (await page.getAttribute("#calltree .tn[data-k='0']", "aria-expanded")) === "false",
	     "a click on its triangle folds the call", rows.length);
	await page.click("#calltree .tn[data-k='0'] .tw");
	L.ok((await treeRows(page)).length === all, "and another unfolds it", (await treeRows(page)).length);
	await page.focus("#calltree .tn[data-k='0']");
	await page.keyboard.press("ArrowLeft");
	L.ok((await treeRows(page)).length === 1, "ArrowLeft folds it");
	await page.keyboard.press("ArrowRight");
	L.ok((await treeRows(page)).length === all, "ArrowRight unfolds it");
	await page.keyboard.press("ArrowDown");
	const second = await page.$eval("#calltree .tn.cur", (r) => r.getAttribute("data-name"));
	L.ok(second === (await treeRows(page))[1][0], "ArrowDown moves to the first callee", second);
	const withKids = await page.$$eval("#calltree .tn[aria-expanded='true']", (rs) => rs.map((r) => +r.getAttribute("data-k")));
	if (withKids.length > 1) {
		await page.focus(`#calltree .tn[data-k='${withKids[1]}']`);
		await page.click(`#calltree .tn[data-k='${withKids[1]}'] .dur`);
		await page.keyboard.press(" ");
		L.ok((await page.getAttribute(`#calltree .tn[data-k='${withKids[1]}']`, "aria-expanded")) === "false" &&
		     (await treeRows(page)).length < all, "Space folds a callee with calls of its own");
		await page.keyboard.press("*");
		L.ok((await treeRows(page)).length >= all && !(await page.$("#calltree .tn[aria-expanded='false']")),
		     "* unfolds everything");
	}
	const open = (await treeRows(page)).length;
	// links from a callee to the graph and to the table
	const target = kids.find((k) => k !== F);
	await page.click(`#calltree .tn[data-name='${target}'] a.fn`);
	await L.focusIs(page, target, `a click on ${target} in the tree focuses it`);
	L.ok(await page.$eval("#viewport g.node.focus", (g) => g.getAttribute("data-name")) === target, "in the graph");
	L.ok((await treeRows(page)).length === open, "and the tree stays open");
	await page.fill("#name-filter", "zzz_no_such");
	await L.settle(page, () => document.getElementById("table-body").children.length === 0);
	await page.click(`#calltree .tn[data-name='${target}'] a.tl`);
	await L.settle(page, (n) => { const r = document.querySelector("#table-body tr.current"); return r && r.dataset.name === n; }, target);
	L.ok(await page.$eval("#table-body tr.current", (r) => r.dataset.name).catch(() => null) === target,
	     "its table link shows its row in the function table (clearing a filter that hid it)");
	L.ok(await page.$eval("#table-body tr.current", (r) => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }),
	     "scrolled into view");
	await page.screenshot({ path: path.join(L.shots, "calls.png") });
	L.ok(problems.length === 0, "no errors in the Calls view", problems.join("\n"));
	await page.close();
}

async function testCallsErrors(L, ctx) {
	const trace = path.join(L.work, "retval.txt"), html = path.join(L.work, "retval.html");
	writeRetvalTrace(trace);
	L.kmag(["html", "--focus", "open_it", "-o", html, trace]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const failing = replay(["--errors", trace]).filter((c) => c.function === "open_it" && c.retval < 0);
	L.ok(failing.length === 2, "replay --errors finds open_it failing twice", failing.length);
	L.ok(/2 failing/.test(await L.text(page, "#calls-kept")), "the view counts the failing calls", await L.text(page, "#calls-kept"));
	L.ok((await rowsOf(page)).length === 6, "it lists the 6 calls");
	await page.check("#calls-errors");
	await L.settle(page, () => document.querySelectorAll("#calls-body tr").length === 2);
	const rets = await page.$$eval("#calls-body tr", (trs) => trs.map((tr) => tr.querySelector("td:nth-child(5)").textContent));
	L.ok(JSON.stringify(rets.slice().sort()) === JSON.stringify(["-13 EACCES", "-2 ENOENT"]),
	     "errors only keeps the two, with their error names", rets.join(" | "));
	await page.fill("#calls-task", "cat");
	await L.settle(page, () => document.querySelectorAll("#calls-body tr").length === 2);
	L.ok((await page.$$eval("#calls-body tr", (trs) => trs.map((tr) => tr.children[1].textContent))).every((t) => t === "cat-77"),
	     "the task filter keeps cat's calls (both failures were cat's)");
	await page.uncheck("#calls-errors");
	await L.settle(page, () => document.querySelectorAll("#calls-body tr").length === 3);
	L.ok((await rowsOf(page)).length === 3, "cat ran open_it 3 times");
	await page.fill("#calls-task", "");
	await page.check("#calls-errors");
	await L.settle(page, () => document.querySelectorAll("#calls-body tr").length === 2);
	await page.click("#calls-body tr:first-child");
	await L.settle(page, () => document.querySelectorAll("#calltree .tn").length === 3);
	const lines = await page.$$eval("#calltree .tn", (rs) => rs.map((r) => r.textContent));
	L.ok(lines.length === 3 && /open_it.*= -\d+ E[A-Z]+/.test(lines[0]) && /getname.*= 0xffff888003a5c000/.test(lines[1]),
	     "a failing call's tree shows the return values", lines.join(" | "));
	L.ok(await page.$eval("#calltree .tn[data-k='0'] .ret", (e) => e.classList.contains("err")), "its error is marked");
	L.ok(problems.length === 0, "no errors on the return-values page", problems.join("\n"));
	await page.close();
}

async function testCallsEscaping(L, ctx) {
	const trace = path.join(L.work, "evil-calls.txt"), html = path.join(L.work, "evil-calls.html");
	L.writeEvilTrace(trace);
	L.kmag(["html", "--focus", "ksys_read", "-o", html, trace]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await page.click("#calls-body tr:first-child");
	await L.settle(page, () => document.querySelectorAll("#calltree .tn").length === 3);
	const names = await page.$$eval("#calltree .tn", (rs) => rs.map((r) => r.querySelector(".fn").textContent));
	L.ok(names[1] === L.EVIL, "a name with markup is a line of the tree, as text", names.join(" | "));
	L.ok(await page.$$eval("b", (bs) => bs.filter((b) => b.textContent === "x").length) === 0, "no element was made from it");
	L.ok(problems.length === 0, "and nothing ran from it", problems.join("\n"));
	await page.close();
}

// Keyboard only: Tab to a call, Enter opens its tree and moves into it; a function tracer's page says why it has no calls.
async function testCallsKeyboard(L, ctx) {
	const html = path.join(L.work, "calls-kbd.html");
	L.kmag(["html", "--focus", "vfs_read", "-o", html, process.env.FIXTURE_FG]);
	let { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await page.focus("#calls-task");
	await page.keyboard.press("Tab");
	const first = await page.evaluate(() => document.activeElement.getAttribute("data-call"));
	L.ok(first !== null, "Tab from the task filter reaches the first call", first);
	await page.keyboard.press("Enter");
	await L.settle(page, () => document.activeElement.classList.contains("tn"));
	L.ok(await page.evaluate(() => document.activeElement.getAttribute("data-name")) === "vfs_read" &&
	     await page.getAttribute("#calltree", "data-call") === first, "Enter opens its tree and moves into it");
	await page.keyboard.press("ArrowLeft");
	L.ok((await treeRows(page)).length === 1, "where the keys fold it");
	L.ok(problems.length === 0, "no errors driving it by keyboard", problems.join("\n"));
	await page.close();

	const fn = path.join(L.work, "calls-fn.html");
	L.kmag(["html", "-o", fn, process.env.FIXTURE_LOST]);
	({ page, problems } = await L.open(ctx, fn));
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const why = await L.text(page, "#calls-kept");
	L.ok(/need a function_graph trace/.test(why) && (await rowsOf(page)).length === 0,
	     "a function tracer's page says that calls need a function_graph trace", why);
	L.ok(problems.length === 0, "no errors on it", problems.join("\n"));
	await page.close();
}

// Linux 6.19 recordings: real errors (funcgraph-retval), arguments (funcgraph-args) and call sites (funcgraph-retaddr).
async function testCallsKernel(L, ctx) {
	const F = "do_filp_open", trace = process.env.FIXTURE_RETVAL, html = path.join(L.work, "calls-619.html");
	L.kmag(["html", "--focus", F, "-o", html, trace]);
	let { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const rep = replay(["--function", F, trace]).filter((c) => c.function === F);
	// an error as the kernel reads it: -4095..-1 (kernel addresses are negative too)
	const fails = rep.filter((c) => c.retval < 0 && c.retval >= -4095).map((c) => c.retval).sort();
	L.ok(fails.length > 0 && fails.length < rep.length, `replay: ${F} ran ${rep.length} times, failed ${fails.length}`);
	const kept = await L.text(page, "#calls-kept");
	L.ok(kept.startsWith(`all ${rep.length} calls, ${fails.length} failing`), "the Calls view counts them the same", kept);
	await page.check("#calls-errors");
	await L.settle(page, (n) => document.querySelectorAll("#calls-body tr").length === n, fails.length);
	const shown = (await page.$$eval("#calls-body tr td:nth-child(5)", (tds) => tds.map((t) => t.textContent)))
		.map((t) => parseInt(t, 10)).sort();
	L.ok(JSON.stringify(shown) === JSON.stringify(fails), "errors only lists replay's failing calls, with their errors",
	     shown.join(" ") + " vs " + fails.join(" "));
	await page.click("#calls-body tr:first-child");
	await L.settle(page, () => document.querySelectorAll("#calltree .tn").length > 0);
	L.ok(await page.$eval("#calltree .tn[data-k='0'] .ret", (e) => e.classList.contains("err") && /^= -\d+ E[A-Z]+$/.test(e.textContent)),
	     "a failing call's tree starts with its error", await L.text(page, "#calltree .tn[data-k='0'] .ret"));
	L.ok(problems.length === 0, "no errors on the 6.19 return-values page", problems.join("\n"));
	await page.close();

	const atrace = process.env.FIXTURE_ARGS, ahtml = path.join(L.work, "calls-args.html");
	const first = replay(["--limit", "1", atrace])[0];
	L.kmag(["html", "--focus", first.function, "-o", ahtml, atrace]);
	({ page, problems } = await L.open(ctx, ahtml));
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const c = await page.evaluate((t) => {
		const C = JSON.parse(document.getElementById("kmag-data").textContent).calls;
		return C.call.node.findIndex((k) => C.t0 + C.node.t[k] === t);
	}, first.start_ns);
	L.ok(c >= 0 && await page.$(`#calls-body tr[data-call='${c}']`) !== null, `the first call (${first.function}) is listed`, c);
	await page.click(`#calls-body tr[data-call='${c}']`);
	await L.settle(page, () => document.querySelectorAll("#calltree .tn").length > 0);
	L.ok(await L.text(page, "#calltree .tn[data-k='0'] .args") === `(${first.args})`, "its tree shows its arguments as replay does",
	     await L.text(page, "#calltree .tn[data-k='0'] .args") + " vs " + first.args);
	L.ok(await L.text(page, "#calltree .tn[data-k='0'] .site") === `\u2190 ${first.call_site}`, "and its call site",
	     await L.text(page, "#calltree .tn[data-k='0'] .site") + " vs " + first.call_site);
	L.ok((await page.$$eval("#calls-head th", (ths) => ths.map((t) => t.textContent))).join(",").includes("Arguments,Called from"),
	     "the list of calls has their columns");
	L.ok(problems.length === 0, "no errors on the arguments page", problems.join("\n"));
	await page.close();
}

module.exports = async function testCalls(L, ctx) {
	await testCallsKernel(L, ctx);
	await testCallsKeyboard(L, ctx);
	await testCallsList(L, ctx);
	await testCallsErrors(L, ctx);
	await testCallsEscaping(L, ctx);
};
