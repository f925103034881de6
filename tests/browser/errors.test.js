// SPDX-License-Identifier: MIT
// errors.test.js - the explorer's Errors panel in chromium, for pages.test.js:
// on a Linux 6.19 recording with return values (tests/fixtures/traces/6.19,
// wl.sh errors) the panel lists `kmag errors --format json`'s groups (a
// separate path through kmag), opens from the header, and a click or Enter on
// an origin focuses it with its chain from the system call drawn in and
// marked; the graph draws the error paths purple with a legend; a page of a
// trace without return values has neither; a failing function whose name is
// markup is listed as text and nothing runs from it.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

const PURPLE = "rgb(122, 1, 119)";
const CTL = "esc_\u001b[31mred\u0001_\u007f";	// terminal escapes and control bytes in a name	// #7a0177, as kmag visualize --errors draws error paths

function errorsJson(trace) {
	return JSON.parse(execFileSync(process.env.KMAG, ["errors", "--format", "json", trace]).toString());
}

async function rows(page) {
	return page.$$eval("#errors-body tr", (trs) => trs.map((tr) =>
		Array.from(tr.children).slice(0, 4).map((td) => td.textContent)));
}
async function marked(page, what) {
	return page.$$eval(`#viewport ${what}`, (es) => es.map((e) => e.getAttribute("data-name") || "edge"));
}

async function testPanel(L, ctx) {
	const trace = process.env.FIXTURE_RETVAL, html = path.join(L.work, "errors-619.html");
	L.kmag(["html", "--focus", "vfs_read", "-o", html, trace]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	const E = errorsJson(trace);
	L.ok(await page.isVisible("#errors"), "a trace with return values has an Errors panel");
	L.ok(!(await page.$eval("#errors-box", (d) => d.open)), "closed at first");
	const btn = await L.text(page, "#errors-open");
	L.ok(btn === `errors: ${E.origins} origins`, "the header offers it with kmag errors' count of origins", btn);
	await page.click("#errors-open");
	L.ok(await page.$eval("#errors-box", (d) => d.open), "a click on it opens the panel");
	const want = E.groups.map((g) => [String(g.count), g.errname ? `${g.errname} (${g.errno})` : String(g.errno),
					  g.origin, g.entry]);
	const got = await rows(page);
	L.ok(JSON.stringify(got) === JSON.stringify(want), `it lists kmag errors' ${want.length} groups in its order`,
	     JSON.stringify(got.slice(0, 6)) + "\nvs " + JSON.stringify(want.slice(0, 6)));
	const types = await L.text(page, "#errors-types");
	L.ok(/^return types unknown/.test(types), "and says the return types are unknown (no BTF)", types);

	// the purple error paths, before any origin is picked
	const purple = await page.$$eval("#viewport path.edge.errpath", (ps) => ps.map((p) => getComputedStyle(p).stroke));
	L.ok(purple.length === 0, "vfs_read's neighbourhood has no error path (none of its calls failed)", purple.join(" "));
	const legend = await L.text(page, "#legend");
	L.ok(/error path/.test(legend) && /born here/.test(legend), "the legend explains the purple marks", legend);

	// ENOENT of the missing file: from __x64_sys_openat down to link_path_walk
	const g = E.groups.find((x) => x.errname === "ENOENT" && x.entry_returned);
	const chain = g.example.chain.map((l) => l.function);
	await page.click(`#errors-body tr[data-origin='${g.origin}']`);
	await L.focusIs(page, g.origin, `a click on the ENOENT row focuses its origin ${g.origin}`);
	await L.settle(page, (n) => document.querySelectorAll("#viewport g.node.errsel").length >= n, chain.length);
	const sel = await marked(page, "g.node.errsel");
	L.ok(chain.every((f) => sel.includes(f)) && sel.length === chain.length,
	     "the graph draws in and marks the whole chain from the system call", sel.join(" ") + "\nvs " + chain.join(" "));
	const steps = await page.$$eval("#viewport path.edge.errsel", (ps) => ps.map((p) => p.querySelector("title").textContent.split("\n")[0]));
	const wantSteps = chain.slice(1).map((f, i) => chain[i] + " \u2192 " + f);
	L.ok(JSON.stringify(steps.slice().sort()) === JSON.stringify(wantSteps.slice().sort()),
	     "and its caller \u2192 callee steps", steps.join(", "));
	const colours = await page.$$eval("#viewport path.edge.errsel", (ps) => ps.map((p) => getComputedStyle(p).stroke));
	L.ok(colours.length && colours.every((c) => c === PURPLE), "in purple", colours.join(" "));
	const origin = await page.$eval(`#viewport g.node[data-name='${g.origin}']`, (n) =>
		[n.classList.contains("errorigin"), getComputedStyle(n.querySelector("rect")).stroke]);
	L.ok(origin[0] && origin[1] === PURPLE, "the origin has the purple border of where an error was born", origin.join(" "));
	L.ok(await page.$eval(`#errors-body tr[data-origin='${g.origin}']`, (tr) => tr.classList.contains("current")),
	     "the row is marked as picked");
	const links = await page.$$eval("#errors-chain ol.chain li", (lis) => lis.map((li) => li.querySelector(".fn").textContent));
	L.ok(JSON.stringify(links) === JSON.stringify(chain), "the example chain is listed, entry point first", links.join(" > "));
	const durs = await page.$$eval("#errors-chain ol.chain li .dur", (ds) => ds.map((d) => d.textContent));
	L.ok(durs[0] === "320.021 us" && durs[durs.length - 1] === "1.093 us",
	     "with the durations the kernel printed (fg619-retval.txt: 320.021 us ... 1.093 us)", durs.join(" "));
	L.ok(/step_into_slowpath/.test(await L.text(page, "#errors-chain .note")),
	     "and the earlier callee that returned the same errno");
	await page.screenshot({ path: path.join(L.shots, "errors.png") });

	// a link of the chain focuses that function and ends the selection
	await page.click("#errors-chain a.fn[data-name='do_filp_open']");
	await L.focusIs(page, "do_filp_open", "a function of the chain is a link to it");
	await L.settle(page, () => document.querySelectorAll("#viewport .errsel").length === 0);
	L.ok((await marked(page, ".errsel")).length === 0, "focusing another function ends the picked path");
	const paths = await marked(page, "path.edge.errpath");
	L.ok(paths.length >= 2, "the error paths around do_filp_open stay purple", paths.length);

	// keyboard: Enter on a row picks it
	const eb = E.groups.find((x) => x.errname === "EBADF");
	await page.focus(`#errors-body tr[data-origin='${eb.origin}']`);
	await page.keyboard.press("Enter");
	await L.focusIs(page, eb.origin, `Enter on the EBADF row focuses ${eb.origin}`);
	await L.settle(page, () => document.querySelectorAll("#viewport path.edge.errsel").length > 0);
	L.ok(JSON.stringify(await marked(page, "g.node.errsel")) !== "[]" &&
	     (await marked(page, "g.node.errsel")).includes(eb.entry), "with its chain from " + eb.entry);

	// the details of a function name the errors born in it
	const ex = E.groups.find((x) => x.errname === "EEXIST" && x.origin === "lookup_one_qstr_excl");
	await page.evaluate(() => { location.hash = "#fn=lookup_one_qstr_excl"; });
	await L.focusIs(page, ex.origin, "focused through the URL: " + ex.origin);
	const born = await page.$$eval("#details-errors li", (lis) => lis.map((li) => li.textContent));
	L.ok(JSON.stringify(born) === JSON.stringify([`EEXIST (-17) under ${ex.entry}\u00d7${ex.count}`]),
	     "its details list the error born in it, as kmag errors has it", JSON.stringify(born));
	await page.click("#details-errors li");
	await L.settle(page, (n) => document.querySelectorAll("#viewport g.node.errsel").length === n, ex.example.chain.length);
	const exSel = await marked(page, "g.node.errsel");
	L.ok(ex.example.chain.every((l) => exSel.includes(l.function)), "a click on it draws its chain", exSel.join(" "));
	await page.evaluate(() => { location.hash = "#fn=vfs_read"; });
	await L.focusIs(page, "vfs_read", "back to vfs_read");
	L.ok(await page.isHidden("#details-errors"), "no error was born in vfs_read: its details have no such list");
	L.ok(problems.length === 0, "no errors on the Errors page", problems.join("\n"));
	await page.close();
}

// A path filter leaves the origin out of the page: its row focuses the deepest
// function of the chain the page has, and names the others as text.
async function testFiltered(L, ctx) {
	const map = path.join(L.work, "open.map"), html = path.join(L.work, "errors-filtered.html");
	fs.writeFileSync(map, ["__x64_sys_openat|fs/open.c", "do_sys_open|fs/open.c", "do_sys_openat2|fs/open.c",
			       "do_filp_open|fs/namei.c", "path_openat|fs/namei.c", "link_path_walk|fs/namei.c", ""].join("\n"));
	L.kmag(["html", "--symbol-file-path", map, "--filter-filepath", "fs/open.c", "-o", html, process.env.FIXTURE_RETVAL]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await page.click("#errors-open");
	await page.click("#errors-body tr[data-origin='link_path_walk']");
	await L.focusIs(page, "do_sys_openat2", "filtered to fs/open.c: the ENOENT row focuses do_sys_openat2, the deepest of its chain there");
	await L.settle(page, () => document.querySelectorAll("#viewport g.node.errsel").length === 3);
	const sel = await marked(page, "g.node.errsel");
	L.ok(sel.slice().sort().join(" ") === "__x64_sys_openat do_sys_open do_sys_openat2", "with the chain down to it marked", sel.join(" "));
	const left = await page.$$eval("#errors-chain ol.chain li span.fn", (ss) => ss.map((s) => s.textContent));
	L.ok(JSON.stringify(left) === JSON.stringify(["do_filp_open (not on the page)", "path_openat (not on the page)",
						     "link_path_walk (not on the page)"]),
	     "the chain names the functions the page leaves out", JSON.stringify(left));
	L.ok(problems.length === 0, "no errors on the filtered page", problems.join("\n"));
	await page.close();
}

async function testNoRetval(L, ctx) {
	const html = path.join(L.work, "errors-none.html");
	L.kmag(["html", "-o", html, process.env.FIXTURE_FG]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	L.ok(await page.isHidden("#errors"), "a trace without return values has no Errors panel");
	L.ok((await page.$$("#errors-open")).length === 0, "nor a header button for it");
	L.ok(!/error path/.test(await L.text(page, "#legend")), "nor error paths in the legend");
	L.ok((await page.$$("#viewport .errpath, #viewport .errorigin")).length === 0, "nor marks in the graph");
	L.ok(problems.length === 0, "no errors on that page", problems.join("\n"));
	await page.close();
}

async function testHostile(L, ctx) {
	const trace = path.join(L.work, "errors-evil.txt"), html = path.join(L.work, "errors-evil.html");
	fs.writeFileSync(trace, [
		"# tracer: function_graph", "#",
		"  100.000000 |   0)   bash-123    |               |  ksys_write() {",
		`  100.000003 |   0)   bash-123    |   1.000 us    |    ${L.EVIL}(); /* ret=-13 */`,
		"  100.000009 |   0)   bash-123    |   9.000 us    |  } /* ksys_write ret=-13 */",
		"  100.000010 |   0)   bash-123    |               |  ksys_read() {",
		`  100.000013 |   0)   bash-123    |   1.000 us    |    ${CTL}(); /* ret=-5 */`,
		"  100.000019 |   0)   bash-123    |   9.000 us    |  } /* ksys_read ret=-5 */", ""].join("\n"));
	L.kmag(["html", "-o", html, trace]);
	const { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	await page.click("#errors-open");
	const got = await rows(page);
	L.ok(got.length === 2 && got.some((r) => r[2] === L.EVIL && r[1] === "EACCES (-13)"),
	     "a failing function named with markup is listed as its text", JSON.stringify(got));
	L.ok(got.some((r) => r[2] === CTL && r[1] === "EIO (-5)"), "and one named with control bytes", JSON.stringify(got));
	await page.click("#errors-body tr[data-group='" + got.findIndex((r) => r[2] === L.EVIL) + "']");
	await L.focusIs(page, L.EVIL, "a click on it focuses it");
	L.ok(await page.$$eval("b", (bs) => bs.filter((b) => b.textContent === "x").length) === 0, "no element was made from it");
	L.ok(await page.$$eval("script", (s) => s.length) === 2, "the page keeps its two scripts");
	L.ok(problems.length === 0, "and nothing ran from it", problems.join("\n"));
	await page.close();
}

module.exports = async function testErrors(L, ctx) {
	await testPanel(L, ctx);
	await testFiltered(L, ctx);
	await testNoRetval(L, ctx);
	await testHostile(L, ctx);
};
