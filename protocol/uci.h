/* The UCI command loop with Sennight's hex extensions (docs/protocol.md). */
#ifndef UCI_H
#define UCI_H

#include <stdio.h>

#include <stdbool.h>
#include <stddef.h>

/* Reads commands until quit or end of input; returns the process exit status. */
int uci_loop(FILE *in);

/* The same in parts, for a caller that runs many sessions on one engine (the fuzz harness). */
struct uci;
/* An engine as uci_loop starts it: the first variant, every option at its default; NULL with the
 * reason in err. */
struct uci *uci_new(char *err, size_t errlen);
/* Reads commands from in until quit or end of input (a count or timed search still running then
 * finishes); false if no thread for the input can start. */
bool uci_session(struct uci *u, FILE *in);
/* Back to how uci_new made it, without making the table, threads and move tables again when their
 * options are at their defaults: a new game of the first variant, every option at its default, the
 * table cleared. Variant files read (VariantPath) stay registered. */
void uci_reset(struct uci *u);
void uci_free(struct uci *u);
/* The variants command (and `sennight variants`): one line per registered variant, its name, number
 * of players, number of cells and description. */
void uci_variants(void);

#endif
