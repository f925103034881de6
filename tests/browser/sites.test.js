// SPDX-License-Identifier: MIT
// sites.test.js - the "Called from" list of the explorer's function details
// in chromium, for pages.test.js: on a Linux 6.19 recording with call sites
// (funcgraph-retaddr) the list of a function is the kernel's own text of the
// same ring buffer (fg619-args.txt, its "<-caller+off" annotations counted
// per site), most calls first; a click or Enter on a site focuses its
// caller; a trace without call sites shows no list.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

// The kernel's text: per function, the number of entries per call site.
function kernelSites(txt) {
	const by = new Map();
	for (const l of fs.readFileSync(txt, "utf8").split("\n")) {
		const m = /\| +([A-Za-z0-9_.]+)\(.*\)(?: \{|;) \/\* <-([^/ ]+)\/0x/.exec(l);
		if (!m)
			continue;
		if (!by.has(m[1]))
			by.set(m[1], new Map());
		const s = by.get(m[1]);
		s.set(m[2], (s.get(m[2]) || 0) + 1);
	}
	return by;
}

async function listed(page) {
	return page.$$eval("#sites li[data-site]", (lis) => lis.map((li) =>
		[li.getAttribute("data-site"), parseInt(li.querySelector(".c").textContent.replace(/,/g, ""), 10)]));
}

module.exports = async function testSites(L, ctx) {
	const trace = process.env.FIXTURE_ARGS, html = path.join(L.work, "sites-619.html");
	const K = kernelSites(trace.replace(/\.dat$/, ".txt"));
	const F = "dput";
	L.ok(K.has(F) && K.get(F).size > 3, `the kernel's text calls ${F} from several sites`, K.has(F) ? K.get(F).size : 0);
	L.kmag(["html", "--focus", F, "-o", html, trace]);
	let { page, problems } = await L.open(ctx, html);
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	L.ok(await page.isVisible("#sites-head"), "a trace with call sites has a Called from list");
	const want = Array.from(K.get(F).entries()).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
	let got = await listed(page);
	L.ok(JSON.stringify(got.map((r) => r[1])) === JSON.stringify(want.map((r) => r[1])),
	     `${F}: as many sites as the kernel's text, most calls first`, JSON.stringify(got) + " vs " + JSON.stringify(want));
	got.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
	L.ok(JSON.stringify(got) === JSON.stringify(want), `${F}: each site with the kernel's count of calls from it`,
	     JSON.stringify(got) + " vs " + JSON.stringify(want));
	await page.screenshot({ path: path.join(L.shots, "sites.png") });
	const count = await L.text(page, "#sites-count");
	const calls = want.reduce((s, r) => s + r[1], 0);
	L.ok(count === `(${want.length}, ${calls} calls)`, "the heading counts sites and calls", count);

	// a click on a site focuses its caller; Enter on a focused site too
	const top = got.length ? want[0][0] : "", caller = top.replace(/\+0x[0-9a-f]+$/, "");
	await page.click(`#sites li[data-site='${top}']`);
	await L.focusIs(page, caller, `a click on ${top} focuses ${caller}`);
	await page.goBack();
	await L.focusIs(page, F, "Back returns to " + F);
	await page.focus(`#sites li[data-site='${top}']`);
	await page.keyboard.press("Enter");
	await L.focusIs(page, caller, "Enter on it does the same");
	// vfs_write: the dd writes and the others, all from one place in ksys_write
	await page.goto(page.url().replace(/#.*/, "") + "#fn=vfs_write");
	await L.focusIs(page, "vfs_write", "vfs_write in focus");
	got = await listed(page);
	const vw = Array.from(K.get("vfs_write").entries());
	L.ok(JSON.stringify(got) === JSON.stringify(vw), "vfs_write: called from the kernel's sites", JSON.stringify(got) + " vs " + JSON.stringify(vw));
	L.ok(problems.length === 0, "no errors on the call sites page", problems.join("\n"));
	await page.close();

	// with the vmlinux (not in the repository; skipped without it): each site's
	// source line, as report --callers --vmlinux names the edge's call sites
	const xz = [process.env.KMAG_SHARED_KERNELS, path.join(process.env.SRCDIR, "../shared/kernels"),
		    path.join(process.env.SRCDIR, "../../shared/kernels")]
		.filter(Boolean).map((d) => path.join(d, "vmlinux-6.19.0.xz")).find((f) => fs.existsSync(f));
	if (xz) {
		const vmlinux = path.join(L.work, "vmlinux"), lhtml = path.join(L.work, "sites-lines.html");
		fs.writeFileSync(vmlinux, execFileSync("xz", ["-dc", xz], { maxBuffer: 1 << 30 }));
		L.kmag(["html", "--vmlinux", vmlinux, "--focus", F, "-o", lhtml, trace]);
		const rep = JSON.parse(execFileSync(process.env.KMAG, ["report", "--vmlinux", vmlinux, "--callers", F,
								      "-F", "json", trace]).toString());
		({ page, problems } = await L.open(ctx, lhtml));
		await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
		const shown = await page.$$eval("#sites li[data-site]", (lis) => lis.map((li) =>
			[li.getAttribute("data-site"), (li.querySelector(".line") || { textContent: "" }).textContent.trim()]));
		await page.screenshot({ path: path.join(L.shots, "sites-lines.png") });
		let same = 0;
		const differ = [];
		for (const [site, line] of shown) {
			const e = rep.edges.find((x) => x.caller === site.replace(/\+0x[0-9a-f]+$/, ""));
			if (!e || !e.call_sites)
				continue;
			if (line && e.call_sites.split(", ").some((c) => c.startsWith(line + " x")))
				same++;
			else
				differ.push(`${site}: ${line} vs ${e.call_sites}`);
		}
		L.ok(same >= 4 && differ.length === 0, `${F}: each site's line as report --callers --vmlinux (${same})`, differ.join("; "));
		L.ok(problems.length === 0, "no errors on the page with lines", problems.join("\n"));
		await page.close();
		fs.rmSync(vmlinux);
	} else {
		L.note("no vmlinux-6.19.0.xz: the call sites' lines are not checked");
	}

	// no call sites recorded: no list
	const rhtml = path.join(L.work, "sites-retval.html");
	L.kmag(["html", "--focus", "vfs_write", "-o", rhtml, process.env.FIXTURE_RETVAL]);
	({ page, problems } = await L.open(ctx, rhtml));
	await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
	L.ok(!(await page.isVisible("#sites-head")) && !(await page.isVisible("#sites")),
	     "a trace without call sites (funcgraph-retaddr) shows no Called from list");
	L.ok(problems.length === 0, "no errors on it", problems.join("\n"));
	await page.close();
};
