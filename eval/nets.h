/* The nets shipped in eval/nets/<variant>.nnue, embedded into the executable (eval/nets_embed.sh). */
#ifndef NETS_H
#define NETS_H

#include <stddef.h>

struct nnue_embedded {
    const char *name;           /* the variant's name */
    const char *path;           /* where it came from, for messages */
    const unsigned char *data;
    size_t len;
};

/* Ends with an entry whose name is NULL. */
extern const struct nnue_embedded nnue_embedded[];

#endif
