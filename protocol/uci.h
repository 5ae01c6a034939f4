/* The UCI command loop with Sennight's hex extensions (docs/protocol.md). */
#ifndef UCI_H
#define UCI_H

#include <stdio.h>

/* Reads commands until quit or end of input; returns the process exit status. */
int uci_loop(FILE *in);
/* The variants command (and `sennight variants`): one line per registered variant, its name, number
 * of players, number of cells and description. */
void uci_variants(void);

#endif
