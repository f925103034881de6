/* SPDX-License-Identifier: MIT */
/*
 * assets.h - files from render/assets/ compiled into the binary by
 * tools/embed.c (see meson.build), so generated pages need nothing else.
 */
#ifndef KMAG_RENDER_ASSETS_H
#define KMAG_RENDER_ASSETS_H

#include <stddef.h>

#define KMAG_ASSET(name)                        \
	extern const char kmag_asset_##name[]; \
	extern const size_t kmag_asset_##name##_len

KMAG_ASSET(flame_js);
KMAG_ASSET(explorer_html);
KMAG_ASSET(explorer_css);
KMAG_ASSET(explorer_graph_js);
KMAG_ASSET(explorer_calls_js);
KMAG_ASSET(explorer_errors_js);
KMAG_ASSET(explorer_sites_js);
KMAG_ASSET(explorer_js);

#undef KMAG_ASSET

#endif /* KMAG_RENDER_ASSETS_H */
