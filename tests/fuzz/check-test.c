// SPDX-License-Identifier: MIT
/*
 * check-test: the render targets' output checks (fuzz-check.h,
 * fuzz-check-pb.h) accept
 * well-formed output and name what is wrong in malformed output; a check
 * that accepted everything would make the targets' abort() dead code.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz-check.h"
#include "fuzz-check-pb.h"

static int n, failed;

static void expect(const char *name, const char *(*check)(const char *, size_t), const char *s,
		   size_t len, int ok)
{
	const char *why = check(s, len);

	if (!why == !!ok) {
		printf("ok %d - %s\n", ++n, name);
	} else {
		printf("not ok %d - %s (%s)\n", ++n, name, why ? why : "accepted");
		failed = 1;
	}
}

/* the test's name: the check and the line it is on (inputs hold line breaks) */
#define GOOD(check, s) expect(#check " accepts line " NAME(__LINE__), check, s, sizeof(s) - 1, 1)
#define BAD(check, s) expect(#check " refuses line " NAME(__LINE__), check, s, sizeof(s) - 1, 0)
#define NAME(l) NAME2(l)
#define NAME2(l) #l

int main(void)
{
	GOOD(fz_check_utf8, "ascii, \xe2\x80\xa6, \xf0\x9f\x94\xa5, \xef\xbf\xbd");
	BAD(fz_check_utf8, "a stray \x80 continuation");
	BAD(fz_check_utf8, "\xff");
	BAD(fz_check_utf8, "overlong \xc0\xaf");
	BAD(fz_check_utf8, "surrogate \xed\xa0\x80");
	BAD(fz_check_utf8, "truncated \xe2\x82 here");
	BAD(fz_check_utf8, "cut at the end \xf0\x9f");
	BAD(fz_check_utf8, "past U+10FFFF \xf4\x90\x80\x80");
	GOOD(fz_check_text, "  name\\x1b[31m \xe2\x80\xa6\n");
	BAD(fz_check_text, "an \x1b[31mESC\n");
	BAD(fz_check_text, "a tab\t\n");
	BAD(fz_check_text, "DEL \x7f\n");
	BAD(fz_check_text, "C1 CSI \xc2\x9b\n");
	BAD(fz_check_text, "bad \xff\n");
	BAD(fz_check_json, "{\"a\": \"\xff\"}");
	BAD(fz_check_csv, "a,b\n\xc0\xaf,c\n");
	BAD(fz_check_xml, "<svg>\xed\xa0\x80</svg>");
	GOOD(fz_check_json, "{\"a\": [1, -2.5e3, true, null, \"x\\u003c\\\"\"], \"b\": {}}");
	BAD(fz_check_json, "{\"a\": [1, 2}");
	BAD(fz_check_json, "{\"a\": \"</script>\n\"}");	/* raw line break in a string */
	BAD(fz_check_json, "{\"a\": \"\\x\"}");
	BAD(fz_check_json, "{\"a\": 1,}");
	BAD(fz_check_json, "{\"a\": 01x}");
	BAD(fz_check_json, "[1] [2]");
	GOOD(fz_check_csv, "name,calls\n\"a,b\",1\n\"say \"\"hi\"\"\",2\r\n");
	BAD(fz_check_csv, "name,calls\na\"b,1\n");
	BAD(fz_check_csv, "name,calls\n\"a,1\n");
	BAD(fz_check_csv, "name,calls\na,b,1\n");
	BAD(fz_check_csv, "name,calls\n\"a\"x,1\n");
	GOOD(fz_check_dot, "digraph \"g\" {\n\"a\\\"b\" -> \"c{\" [label=\"x]\"];\n}\n");
	BAD(fz_check_dot, "digraph g {\n\"a\"b\" -> c;\n}\n");
	BAD(fz_check_dot, "digraph g {\n\"a\" -> c;\n");
	BAD(fz_check_dot, "digraph g {\na [label=<b>];\n}\n");
	GOOD(fz_check_xml, "<?xml version=\"1.0\"?>\n<svg a=\"x&amp;y\"><g><text>a &lt; b</text><rect/></g>"
			   "<![CDATA[ <x> ]]><!-- c --></svg>\n");
	BAD(fz_check_xml, "<svg><text>a & b</text></svg>");
	BAD(fz_check_xml, "<svg><text>a < b</text></svg>");
	BAD(fz_check_xml, "<svg><g></svg></g>");
	BAD(fz_check_xml, "<svg a=\"x\"y\"></svg>");
	BAD(fz_check_xml, "<svg><text>]]></text></svg>");
	BAD(fz_check_xml, "<svg></svg><svg></svg>");
	GOOD(fz_check_html, "<html><script>var a = \"\\u003c/script>\";</script></html>");
	BAD(fz_check_html, "<html><script>var a = \"</script>\";</script></html>");
	BAD(fz_check_html, "<html><script>var a;</html>");
	GOOD(fz_check_html, "<script type=\"application/json\" id=\"kmag-data\">{\"a\":[1,-1]}</script>");
	BAD(fz_check_html, "<script type=\"application/json\" id=\"kmag-data\">{\"a\":[1,]}</script>");
	/* Perfetto: TracePacket {timestamp (8), track_event (11) {type (9), track_uuid (11) = 5}} */
#define PF_SLICE(ts, type) "\x0a\x08\x40" ts "\x5a\x04\x48" type "\x58\x05"
	GOOD(fz_check_perfetto, PF_SLICE("\x0a", "\x01") PF_SLICE("\x14", "\x02"));
	GOOD(fz_check_perfetto, PF_SLICE("\x0a", "\x01") PF_SLICE("\x0a", "\x01")
		PF_SLICE("\x0b", "\x02") PF_SLICE("\x0c", "\x02"));
	BAD(fz_check_perfetto, PF_SLICE("\x0a", "\x02"));
	BAD(fz_check_perfetto, PF_SLICE("\x0a", "\x01"));
	BAD(fz_check_perfetto, PF_SLICE("\x14", "\x01") PF_SLICE("\x0a", "\x02"));
	BAD(fz_check_perfetto, PF_SLICE("\x0a", "\x07") PF_SLICE("\x14", "\x02"));
	BAD(fz_check_perfetto, "\x12\x00");			/* field 2: no TracePacket */
	BAD(fz_check_perfetto, "\x0a\x09\x40\x0a");		/* a packet past the end */
	BAD(fz_check_perfetto, "\x0a\x02\x5a\x05");		/* a track event past its packet */
	BAD(fz_check_perfetto, "\x0a\x01\x43");		/* wire type 3 */
	printf("1..%d\n", n);
	return failed;
}
