// SPDX-License-Identifier: MIT
/*
 * suggest.c - kmag_suggest() (include/kmag/kmag.h): the names that look like
 * a word the user typed, for "did you mean" in every message that names an
 * unknown option, command, function, event or argument.
 *
 * Our own code: the few lines of an edit distance are not worth a library
 * (glib's and ICU's do not count a swap of two characters as one edit).
 */
#include <stdio.h>
#include <string.h>

#include "kmag/kmag.h"

#define MAX_WORD 128	/* longer words are only compared by prefix */
#define MAX_SHOWN 4
#define PREFIX_SCORE 3	/* a prefix ranks after every typo of one or two edits */

/*
 * The optimal string alignment distance of @a and @b (insert, delete,
 * substitute, swap two neighbours; each 1), or SIZE_MAX when either is too
 * long or the lengths alone differ by more than 2.
 */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[3][MAX_WORD + 1];	/* rows i-2, i-1, i, rolling */

	if (la >= MAX_WORD || lb >= MAX_WORD || (la > lb ? la - lb : lb - la) > 2)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return d[la % 3][lb];
}

/* How much @cand looks like @word: 1, 2 (edits) or PREFIX_SCORE; SIZE_MAX: not at all. */
static size_t score(const char *word, size_t lw, const char *cand)
{
	size_t lc = strlen(cand), d;

	if (!lc || !strcmp(word, cand))
		return SIZE_MAX;	/* the word itself is no suggestion */
	d = distance(word, cand);
	if (d <= 1 || (d == 2 && lw >= 5))
		return d;
	if (!strncmp(cand, word, lw) || (lc >= 3 && !strncmp(word, cand, lc)))
		return PREFIX_SCORE;
	return SIZE_MAX;
}

size_t kmag_suggest(const char *word, const char *const *names, size_t n, const char *prefix,
		    char *buf, size_t size)
{
	size_t best[MAX_SHOWN], best_score[MAX_SHOWN], found = 0, lw = strlen(word), i, k, len = 0;

	if (size)
		buf[0] = '\0';
	if (!lw)
		return 0;
	for (i = 0; i < n; i++) {
		size_t sc = names[i] ? score(word, lw, names[i]) : SIZE_MAX;
		bool dup = false;

		if (sc == SIZE_MAX)
			continue;
		for (k = 0; k < found && !dup; k++)
			dup = !strcmp(names[best[k]], names[i]);
		if (dup || (found == MAX_SHOWN && sc >= best_score[found - 1]))
			continue;
		/* insert by score, the earlier name first among equals */
		k = found < MAX_SHOWN ? found++ : MAX_SHOWN - 1;
		while (k > 0 && best_score[k - 1] > sc) {
			best[k] = best[k - 1];
			best_score[k] = best_score[k - 1];
			k--;
		}
		best[k] = i;
		best_score[k] = sc;
	}
	for (k = 0; k < found && size; k++) {
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s%s",
					k ? ", " : "", prefix ? prefix : "", names[best[k]]);
		if (len >= size)
			len = size - 1;
	}
	return found;
}
